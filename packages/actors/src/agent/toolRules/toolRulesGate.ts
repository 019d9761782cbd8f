import {
  type AnyTool,
  type CompiledToolRules,
  type RuleBlock,
  type ToolCall,
  type ToolRuleState,
  type ToolRulesEvent,
  allowedTools,
  applyCall,
  callEvent,
  explainBlockedCall,
  prefilledArgs,
} from '@agentchart/core';
import { argumentsToValidate, unnamedToolBlock } from '@agentchart/core/internal';
import type { ToolOutcome } from '../machine/toolOutcome.js';

/** A call the tool rules refused: never executed. */
export interface CallRefusal extends RuleBlock {
  /** The tools that were allowed at that point of the batch. */
  allowedTools: string[];
  /** The tool result the model sees. */
  content: string;
}

/** A batch after the rules have checked it. */
export interface GatedBatch {
  /** The calls as they will run: prefilled arguments merged in. */
  calls: ToolCall[];
  /** Per call: the refusal, or `undefined` when the call may run. */
  refusals: (CallRefusal | undefined)[];
  /** Per call: whether it advanced the rule machine. */
  admitted: boolean[];
  /** The rule state after the admitted calls. */
  state: ToolRuleState;
  /** The events that move the rule machine the same way, in order. */
  events: ToolRulesEvent[];
}

/**
 * Checks a batch of calls against the rules in order, each admitted call
 * advancing the state before the next is checked. A refused call is never
 * executed. Calls of tools the agent does not have, and calls whose arguments
 * fail the tool's schema, pass through without advancing the rules (the tool
 * runner answers them with the error). A tool the agent has but the rules do
 * not name (added during the run) runs only where the rules leave the choice
 * free, or never with `unnamedTools: 'refuse'`; it does not advance the
 * rules. A call of a `requiresApproval` tool
 * puts the rules in their waiting state: the agent asks a person, and later
 * calls of the batch are refused until the decision.
 *
 * @example
 * const gated = gateToolCalls(compiled, tools, state, reply.toolCalls);
 * gated.refusals[1]?.content; // 'Tool "read" was not run: after search only summarize may be called (rule: child). ...'
 */
export function gateToolCalls(
  rules: CompiledToolRules,
  tools: ReadonlyMap<string, AnyTool>,
  initial: ToolRuleState,
  calls: readonly ToolCall[],
): GatedBatch {
  const { program } = rules;
  const gated: GatedBatch = { calls: [], refusals: [], admitted: [], state: initial, events: [] };
  const pass = (call: ToolCall, admitted: boolean) => {
    gated.calls.push(call);
    gated.refusals.push(undefined);
    gated.admitted.push(admitted);
    if (!admitted) return;
    gated.state = applyCall(program, gated.state, call.name);
    gated.events.push(callEvent(call.name));
  };
  for (const original of calls) {
    const { state } = gated;
    const named = program.toolSet.has(original.name);
    if (!named && !tools.has(original.name)) {
      pass(original, false); // unknown tool: the runner answers it
      continue;
    }
    const block = named ? explainBlockedCall(program, state, original.name) : unnamedToolBlock(program, state, rules.unnamedTools, original.name);
    if (block !== null) {
      const allowed = allowedTools(program, state);
      gated.calls.push(original);
      gated.refusals.push({ ...block, allowedTools: allowed, content: refusalText(original.name, block, allowed) });
      gated.admitted.push(false);
      continue;
    }
    if (!named) {
      pass(original, false); // allowed, and the rules know nothing about it: their state stays
      continue;
    }
    const call = withPrefilledArgs(original, prefilledArgs(program, state, original.name));
    pass(call, argumentsLookValid(tools.get(call.name), call));
  }
  return gated;
}

/** The index of the last call of `tool` the rules admitted in a gated batch, or -1. */
export function lastAdmittedIndex(batch: { calls: readonly { name: string }[]; admitted?: readonly boolean[] }, tool: string): number {
  let index = batch.calls.length - 1;
  while (index >= 0 && !(batch.admitted?.[index] && batch.calls[index]?.name === tool)) index--;
  return index;
}

/** The outcome a refused call gets instead of running (`undefined` for a call that runs). */
export function refusalOutcome(refusal: CallRefusal | undefined): ToolOutcome | undefined {
  return refusal && { content: refusal.content, isError: true, refusedBy: refusal.rule };
}

/** The tool result for a refused call: the rule, the reason and the tools allowed now. */
export function refusalText(tool: string, block: RuleBlock, allowed: readonly string[]): string {
  const now = allowed.length > 0 ? `Tools you may call now: ${allowed.join(', ')}.` : 'No tool may be called now.';
  return `Tool "${tool}" was not run: ${block.reason} (rule: ${block.rule}). ${now}`;
}

function withPrefilledArgs(call: ToolCall, args: Readonly<Record<string, unknown>> | undefined): ToolCall {
  if (args === undefined || call.malformedArguments !== undefined) return call;
  const own = typeof call.arguments === 'object' && call.arguments !== null ? (call.arguments as Record<string, unknown>) : {};
  return { ...call, arguments: { ...own, ...args } };
}

/**
 * Whether the arguments pass the tool's schema, checked synchronously so a
 * call that cannot run does not count against the rules. Schemas with async
 * refinements (or built from the call's context) cannot be checked here and
 * count as valid.
 */
export function argumentsLookValid(tool: AnyTool | undefined, call: ToolCall): boolean {
  if (tool === undefined || call.malformedArguments !== undefined) return false;
  // A schema built from the call's context can only be checked with it, when the call runs.
  if (tool.parametersFor !== undefined) return true;
  try {
    return tool.parameters.safeParse(argumentsToValidate(tool, call)).success;
  } catch {
    return true;
  }
}
