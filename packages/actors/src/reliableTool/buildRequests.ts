import { type ChatRequest, msg } from '@agentchart/core';
import { runnerSystemPrompt, validatorSystemPrompt, validatorUserPrompt } from './prompts.js';
import type { ReliableRunContext } from './reliableRunContext.js';
import { validationResponseFormat } from './validationResult.js';

/** The runner's request: offered only the wrapped tool, and a call is required. */
export function buildRunnerRequest(context: ReliableRunContext): ChatRequest {
  const { runtime } = context;
  return {
    messages: [msg.system(runnerSystemPrompt(runtime.tool.name, runtime.runnerInstructions)), ...context.preamble, ...context.transcript],
    tools: [runtime.runnerSpec],
    toolChoice: 'required',
    parallelToolCalls: false,
  };
}

/** The validator's request for the current attempt's result: no tools, structured output. */
export function buildValidatorRequest(context: ReliableRunContext): ChatRequest {
  const { runtime, current } = context;
  const args = current.runnerCall?.args ?? {};
  const text = current.toolRun?.ok ? current.toolRun.text : '';
  return {
    messages: [
      msg.system(validatorSystemPrompt(runtime.tool.name, runtime.validationInstructions, context.validationPromptAddition)),
      ...context.preamble,
      msg.user(validatorUserPrompt(context.task, runtime.tool.name, args, text)),
    ],
    tools: [],
    toolChoice: 'none',
    responseFormat: validationResponseFormat,
  };
}
