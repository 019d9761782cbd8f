import type { AnyTool } from '@agentchart/core';
import type { AgentRun } from '../run/agentRun.js';
import { applySourceToolChange, diffSourceTools } from './sourceToolChange.js';
import type { ToolSource } from './toolSource.js';
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
    const diff = diffSourceTools(current.get(source.name) ?? new Map<string, AnyTool>(), next);
    if (diff === undefined) return;
    current.set(source.name, diff.after);
    applySourceToolChange(actor, source.name, diff);
  };
  const stop = sources.onToolsChanged((source) => {
    queue = queue.then(() => apply(source));
    return queue;
  });
  void run.result.then(stop, stop);
  return stop;
}
