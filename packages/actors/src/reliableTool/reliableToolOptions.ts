import {
  type ChatModel,
  ConfigurationError,
  type Message,
  MessageSchema,
  type Tool,
  type ToolParameters,
  ToolDefinitionError,
} from '@agentchart/core';
import { z } from 'zod';
import { DEFAULT_MAX_TOOL_INVOCATIONS } from '../constants.js';
import type { ReliableToolRuntime } from './reliableToolRuntime.js';
import { runnerToolSpec } from './runnerCall.js';

/** What `reliableTool` takes (AG2's ReliableTool parameters, in camelCase). */
export interface ReliableToolOptions<P extends ToolParameters = ToolParameters, R = unknown> {
  /** The reliable tool's own name, as other agents see it (1 to 64 letters, digits, `_` or `-`). */
  name: string;
  /** The tool to run until one invocation passes validation (AG2 `func_or_tool`). */
  tool: Tool<P, R>;
  /** The model that turns the task into a call of `tool`; it must support tool calling. */
  runnerModel: ChatModel;
  /** The model that judges each result; it must support structured output. */
  validatorModel: ChatModel;
  /** What other agents read about this tool (default: the wrapped tool's description). */
  description?: string;
  /** Added to the runner's system prompt (AG2 `system_message_addition_for_tool_calling`). */
  runnerInstructions?: string;
  /** The base validation criteria, added to the validator's system prompt (AG2 `system_message_addition_for_result_validation`). */
  validationInstructions?: string;
  /** Attempts per run, the first included (default 3). Every failure counts: see docs/reliable-tool.md. */
  maxToolInvocations?: number;
  /** Accept `validationPromptAddition` per run (default false). */
  dynamicValidation?: boolean;
  /** Prepended to both models' history on every run. */
  messages?: readonly Message[];
  /** Facts shown to both models on every run, each as its own "[[Provided Ground Truth N]]: …" message. */
  groundTruth?: readonly string[];
}

/** Builds the runtime of a reliable tool, refusing unusable options with a message that says what to fix. */
export function resolveReliableToolRuntime<P extends ToolParameters, R>(options: ReliableToolOptions<P, R>): ReliableToolRuntime {
  const { name, tool } = options;
  if (!tool || typeof tool.execute !== 'function' || !tool.spec) {
    throw new ToolDefinitionError(`reliableTool "${name}" needs \`tool\`: a tool made with defineTool(...).`, { name });
  }
  assertModel(name, 'runnerModel', options.runnerModel);
  assertModel(name, 'validatorModel', options.validatorModel);
  const maxToolInvocations = options.maxToolInvocations ?? DEFAULT_MAX_TOOL_INVOCATIONS;
  if (!Number.isInteger(maxToolInvocations) || maxToolInvocations < 1) {
    throw new ConfigurationError(
      `maxToolInvocations of reliableTool "${name}" must be a whole number of at least 1; got ${String(options.maxToolInvocations)}.`,
      { name, maxToolInvocations: options.maxToolInvocations },
    );
  }
  return {
    name,
    tool,
    runnerSpec: runnerToolSpec(tool),
    runnerModel: options.runnerModel,
    validatorModel: options.validatorModel,
    runnerInstructions: options.runnerInstructions,
    validationInstructions: options.validationInstructions,
    maxToolInvocations,
  };
}

function assertModel(name: string, option: string, model: ChatModel | undefined): void {
  if (!model || typeof model.stream !== 'function') {
    throw new ConfigurationError(`reliableTool "${name}" needs \`${option}\`: a ChatModel, e.g. ollama(...) or scriptedModel(...).`, {
      name,
    });
  }
}

/** Parses messages and ground truth, or says what is wrong with them. */
export function readContextItems(
  where: string,
  messages: readonly Message[] | undefined,
  groundTruth: readonly string[] | undefined,
): { ok: true; messages: Message[]; groundTruth: string[] } | { ok: false; problem: string } {
  const parsedMessages = z.array(MessageSchema).safeParse(messages ?? []);
  if (!parsedMessages.success) {
    return { ok: false, problem: `${where}: \`messages\` must be chat messages ({ role, content, ... }): ${z.prettifyError(parsedMessages.error)}` };
  }
  const parsedTruth = z.array(z.string()).safeParse(groundTruth ?? []);
  if (!parsedTruth.success) return { ok: false, problem: `${where}: \`groundTruth\` must be a list of strings.` };
  return { ok: true, messages: parsedMessages.data, groundTruth: parsedTruth.data };
}
