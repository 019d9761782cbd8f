import { type AnyTool, type CompiledToolRules, compileToolRules, rules, ToolRulesError } from '@agentchart/core';
import { toErrorInfo } from '@agentchart/core/internal';
import type { AgentRun } from '../run/agentRun.js';
import type { ToolListChange } from './liveTools.js';
import type { ToolSource } from './toolSource.js';
import { ToolSourceError } from './toolSourceError.js';
import type { ToolSourceSet } from './toolSourceSet.js';

/**
 * Follows the sources' list changes into one running run: each change is
 * applied to the run's live tool list (the path `ctx.addTools` /
 * `ctx.removeTools` take, so it reaches the next model request) and reported
 * as a `tools.changed` event whose `callId` is `source:<name>`. A removed
 * tool that the tool rules name makes the rules be checked again without it;
 * when they could deadlock, the run fails with `TOOL_SOURCE_RULES_BROKEN`
 * instead of reaching the deadlock. Returns the unsubscribe.
 *
 * @example
 * const stop = followToolSources(run, sources, loaded.bySource);
 * void run.result.finally(stop);
 */
export function followToolSources(run: AgentRun, sources: ToolSourceSet, loaded: ReadonlyMap<string, readonly AnyTool[]>): () => void {
  const current = new Map([...loaded].map(([name, tools]) => [name, new Map(tools.map((tool) => [tool.name, tool]))]));
  let queue = Promise.resolve();
  const apply = async (source: ToolSource) => {
    const actor = run.actor;
    if (actor.getSnapshot().status !== 'active') return;
    let next: readonly AnyTool[];
    try {
      next = await source.loadTools();
    } catch {
      return; // the source is unreachable now: its calls fail with that error, the list stays
    }
    if (actor.getSnapshot().status !== 'active') return;
    const before = current.get(source.name) ?? new Map<string, AnyTool>();
    const after = new Map(next.map((tool) => [tool.name, tool]));
    const removed = [...before.keys()].filter((name) => after.get(name) !== before.get(name));
    const added = [...after.values()].filter((tool) => before.get(tool.name) !== tool);
    if (removed.length === 0 && added.length === 0) return;
    current.set(source.name, after);
    const { runtime } = actor.getSnapshot().context;
    try {
      const gone = removed.filter((name) => !after.has(name));
      if (runtime.toolRules !== undefined) checkRulesWithout(runtime.toolRules, gone, source.name);
      const change: ToolListChange = { added: [], removed: [] };
      change.removed = runtime.liveTools.remove(removed).removed;
      change.added = runtime.liveTools.add(added).added;
      runtime.liveTools.record(`source:${source.name}`, change);
      actor.send({ type: 'tools.changed', callId: `source:${source.name}`, change });
    } catch (error) {
      actor.send({ type: 'tools.unusable', error: toErrorInfo(error) });
    }
  };
  const stop = sources.onToolsChanged((source) => {
    queue = queue.then(() => apply(source));
    return queue;
  });
  void run.result.then(stop, stop);
  return stop;
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
