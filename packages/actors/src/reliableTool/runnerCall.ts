import {
  type AnyTool,
  type JsonSchema,
  type ToolCall,
  type ToolContext,
  type ToolSpec,
  ToolDefinitionError,
  isToolError,
  validateToolArguments,
} from '@agentchart/core';
import { exportedName, formatArgumentIssues, toErrorInfo } from '@agentchart/core/internal';
import type { ModelReply } from './collectModelReply.js';

/** The argument the runner adds to every call of the wrapped tool. */
export const HYPOTHESIS_ARGUMENT = 'hypothesis';

const HYPOTHESIS_SCHEMA: JsonSchema = {
  type: 'string',
  description: 'One short sentence: why these arguments should produce a result that satisfies the task.',
};

/**
 * The wrapped tool as the runner sees it: its own parameters plus a required
 * `hypothesis`, listed first so that a model decoding left to right states
 * its reasoning before it picks the arguments.
 */
export function runnerToolSpec(tool: AnyTool): ToolSpec {
  const properties = (tool.jsonSchema.properties ?? {}) as Record<string, unknown>;
  if (HYPOTHESIS_ARGUMENT in properties) {
    throw new ToolDefinitionError(
      `reliableTool cannot wrap "${tool.name}": it already has a "${HYPOTHESIS_ARGUMENT}" parameter, which the runner adds itself. Rename that parameter.`,
      { name: tool.name },
    );
  }
  const required = Array.isArray(tool.jsonSchema.required) ? (tool.jsonSchema.required as string[]) : [];
  const parameters: JsonSchema = {
    ...tool.jsonSchema,
    properties: { [HYPOTHESIS_ARGUMENT]: HYPOTHESIS_SCHEMA, ...properties },
    required: [HYPOTHESIS_ARGUMENT, ...required],
  };
  return { ...tool.spec, parameters };
}

/** The runner's call of the wrapped tool, with valid arguments. */
export interface RunnerCall {
  call: ToolCall;
  /** The arguments the tool receives (parsed by its schema; no hypothesis). */
  args: Record<string, unknown>;
  /** Why the runner expects these arguments to work ('' if it gave none). */
  hypothesis: string;
}

/** What the runner's reply amounts to: a usable call, or why there is none. */
export type RunnerCallReading = { ok: true; runnerCall: RunnerCall } | { ok: false; reason: string };

/**
 * Finds the attempt's call in the runner's reply: its first tool call, which
 * must name the wrapped tool and carry arguments the tool's schema accepts
 * (the hypothesis is taken out first; validators that read the context, such
 * as shared state, get the call's `ctx`). Anything else — a refinement's
 * `ToolError` or crash included — is a reply without a valid call, with the
 * reason the runner will be shown.
 */
export async function readRunnerCall(tool: AnyTool, reply: ModelReply, contextFor: (call: ToolCall) => ToolContext): Promise<RunnerCallReading> {
  const call = reply.toolCalls[0];
  if (call === undefined) {
    return { ok: false, reason: `The runner replied without calling "${tool.name}"; a call of "${tool.name}" is required.` };
  }
  if (call.name !== tool.name) {
    return { ok: false, reason: `The runner called "${exportedName(call.name)}", which is not available; only "${tool.name}" can be called.` };
  }
  const { hypothesis, toolArguments } = splitHypothesis(call.arguments);
  let validation: Awaited<ReturnType<typeof validateToolArguments>>;
  try {
    validation = await validateToolArguments(tool, { ...call, arguments: toolArguments }, contextFor(call));
  } catch (error) {
    return { ok: false, reason: isToolError(error) ? error.message : `"${tool.name}" failed: ${toErrorInfo(error).message}` };
  }
  if (!validation.ok) return { ok: false, reason: formatArgumentIssues(tool.name, validation.issues) };
  return { ok: true, runnerCall: { call, args: validation.args, hypothesis } };
}

function splitHypothesis(raw: unknown): { hypothesis: string; toolArguments: unknown } {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return { hypothesis: '', toolArguments: raw };
  const { [HYPOTHESIS_ARGUMENT]: hypothesis, ...toolArguments } = raw as Record<string, unknown>;
  return { hypothesis: typeof hypothesis === 'string' ? hypothesis : '', toolArguments };
}
