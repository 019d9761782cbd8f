import type { ChatRequest, Message } from '@agentchart/core';
import type { AgentContext } from './agentContext.js';
import { applyToolRulesToRequest } from './toolRulesRequest.js';

/** The request for the model's next step: system prompt, transcript, tools. */
export function buildModelRequest(context: AgentContext): ChatRequest {
  const { runtime } = context;
  const messages: readonly Message[] =
    runtime.instructions === undefined
      ? context.messages
      : [{ role: 'system', content: runtime.instructions }, ...context.messages];
  const request: ChatRequest = { messages, tools: runtime.toolSpecs, toolChoice: runtime.toolSpecs.length > 0 ? runtime.toolChoice : 'none' };
  return runtime.toolRules && context.rules ? applyToolRulesToRequest(request, runtime.toolRules, context.rules) : request;
}
