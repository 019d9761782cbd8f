import { type AnyTool, type CompiledToolRules, compileToolRules, rules, ToolRulesError } from '@agentchart/core';
import { toErrorInfo } from '@agentchart/core/internal';
import type { Actor } from 'xstate';
import type { agentMachine } from '../machine/agentMachine.js';
import { ToolSourceError } from './toolSourceError.js';
import type { ToolListChange } from './liveTools.js';

/** A source's tools by name, as last seen. */
export type SourceTools = ReadonlyMap<string, AnyTool>;

/** What changed between a source's tool list `before` and its new list `next`: `undefined` when nothing did. */
export function diffSourceTools(
  before: SourceTools,
  next: readonly AnyTool[],
): { after: Map<string, AnyTool>; removed: string[]; added: AnyTool[] } | undefined {
  const after = new Map(next.map((tool) => [tool.name, tool]));
  const removed = [...before.keys()].filter((name) => after.get(name) !== before.get(name));
  const added = [...after.values()].filter((tool) => before.get(tool.name) !== tool);
  return removed.length === 0 && added.length === 0 ? undefined : { after, removed, added };
}

/**
 * Applies a source's list change to a running agent: the rules are checked
 * again without the tools that are gone (a possible deadlock makes the run
 * fail with `TOOL_SOURCE_RULES_BROKEN` instead of reaching it), the live list
 * changes (recorded as the source's, so a checkpoint can re-derive it), and
 * the agent gets a `tools.changed` event whose `callId` is `source:<name>`.
 *
 * @example
 * const diff = diffSourceTools(before, await source.loadTools());
 * if (diff) applySourceToolChange(run.actor, source.name, diff);
 */
export function applySourceToolChange(
  actor: Actor<typeof agentMachine>,
  sourceName: string,
  diff: NonNullable<ReturnType<typeof diffSourceTools>>,
): void {
  const { runtime } = actor.getSnapshot().context;
  const callId = `source:${sourceName}`;
  try {
    const gone = diff.removed.filter((name) => !diff.after.has(name));
    if (runtime.toolRules !== undefined) checkRulesWithout(runtime.toolRules, gone, sourceName);
    const change: ToolListChange = { added: [], removed: [] };
    change.removed = runtime.liveTools.remove(diff.removed).removed;
    change.added = runtime.liveTools.add(diff.added).added;
    runtime.liveTools.record(callId, change);
    actor.send({ type: 'tools.changed', callId, change });
  } catch (error) {
    actor.send({ type: 'tools.unusable', error: toErrorInfo(error) });
  }
}

/** Throws `ToolSourceError` when the rules, with `removed` never callable, can deadlock (or contradict). */
export function checkRulesWithout(compiled: CompiledToolRules, removed: readonly string[], source: string): void {
  const named = removed.filter((name) => compiled.program.toolSet.has(name));
  if (named.length === 0) return;
  const list = named.map((name) => `"${name}"`).join(', ');
  let recompiled: CompiledToolRules;
  try {
    recompiled = compileToolRules([...compiled.rules, ...named.map((name) => rules.maxCount(name, 0))], compiled.toolNames);
  } catch (error) {
    if (!(error instanceof ToolRulesError)) throw error;
    throw new ToolSourceError(
      'TOOL_SOURCE_RULES_BROKEN',
      `Tool source "${source}" removed ${list}, which the tool rules name; without it the rules can deadlock, so the run stopped here. ` +
        `${error.message} Restore the tool on the server, or change the rules so they do not depend on it.`,
      { source, removed: named, rulesError: error.code },
      { cause: error },
    );
  }
  const couldEnd = !compiled.warnings.some((warning) => warning.code === 'RUN_CAN_NEVER_END');
  if (couldEnd && recompiled.warnings.some((warning) => warning.code === 'RUN_CAN_NEVER_END')) {
    throw new ToolSourceError(
      'TOOL_SOURCE_RULES_BROKEN',
      `Tool source "${source}" removed ${list}, which the tool rules name; without it no run can end (a required tool can no longer be called), ` +
        'so the run stopped here. Restore the tool on the server, or change the rules so they do not depend on it.',
      { source, removed: named, rulesError: 'RUN_CAN_NEVER_END' },
    );
  }
}
