import { type AnyStateMachine, type AnyStateNode, getInitialSnapshot, getNextSnapshot } from 'xstate';
import { type MachineSnapshotLike, activeStateNodes } from '../trace/activeStateNodes.js';
import type { GraphEdge } from './graphEdge.js';

interface ExploredSnapshot extends MachineSnapshotLike {
  value: unknown;
  context: unknown;
}

/**
 * Finds a machine's transitions by running it: from the initial snapshot,
 * every event type the machine knows is tried in every reachable snapshot,
 * and each move between states becomes an edge. This draws machines whose
 * rules live in guards on "any state" transitions (tool rules) as what they
 * allow, not as what they test. `undefined` when more than `maxSnapshots`
 * snapshots are reachable.
 *
 * A transition that leaves the snapshot as it was is drawn too (a self-loop).
 * Events are labelled by the root's `meta.eventLabels` where it names them.
 * Events are tried without payload, except those the root's
 * `meta.eventSamples` lists (`{ output: [{ value: true }, …] }`): each sample
 * is tried, and a sample that changes only the context (a tool's output) is
 * drawn as the condition (`guard`) on the moves that follow it.
 *
 * @example
 * exploreEdges(compiled.machine); // [{ source: 'toolRules.start', target: 'toolRules.after:search', label: 'search', … }]
 */
export function exploreEdges(machine: AnyStateMachine, maxSnapshots = 2000): GraphEdge[] | undefined {
  const samples = eventSamples(machine);
  const labels = eventLabels(machine);
  const events = knownEventTypes(machine.root).flatMap((type) =>
    (samples[type] ?? [{}]).map((payload) => ({ event: { ...payload, type }, sampled: samples[type] !== undefined })),
  );
  const initial = getInitialSnapshot(machine) as unknown as ExploredSnapshot;
  const seen = new Set([keyOf(initial)]);
  /** The sampled event that led to a snapshot whose state did not change: the condition of its next moves. */
  const conditions = new Map<string, string>();
  const queue = [initial];
  const edges = new Map<string, GraphEdge>();
  while (queue.length > 0) {
    const snapshot = queue.shift() as ExploredSnapshot;
    const here = keyOf(snapshot);
    for (const { event, sampled } of events) {
      let next: ExploredSnapshot;
      try {
        next = getNextSnapshot(machine, snapshot as never, event) as unknown as ExploredSnapshot;
      } catch {
        continue;
      }
      // XState returns the very snapshot it was given when no transition is enabled; a transition taken
      // that changes nothing (a tool allowed again right after itself) is a move all the same: a self-loop.
      if (next === snapshot) continue;
      const key = keyOf(next);
      if (key === here && !event.type.startsWith('call.')) continue; // only a call is drawn as a move that changes nothing
      const label = sampled
        ? `${event.type} ${JSON.stringify((event as { value?: unknown }).value)}`
        : (labels[event.type] ?? event.type.replace(/^call\./, ''));
      const stays = JSON.stringify(next.value) === JSON.stringify(snapshot.value);
      if (sampled && stays) {
        if (key !== here) conditions.set(key, label);
      } else {
        const guard = conditions.get(here);
        for (const source of leafIds(snapshot)) {
          for (const target of leafIds(next)) {
            const edge: GraphEdge = { source, target, event: event.type, label };
            if (guard !== undefined) edge.guard = guard;
            edges.set(`${source}|${target}|${label}|${guard ?? ''}`, edge);
          }
        }
      }
      if (!seen.has(key)) {
        if (seen.size >= maxSnapshots) return undefined;
        seen.add(key);
        queue.push(next);
      }
    }
  }
  return [...edges.values()];
}

function eventSamples(machine: AnyStateMachine): Record<string, object[]> {
  const samples = (machine.root.meta as { eventSamples?: unknown } | undefined)?.eventSamples;
  if (typeof samples !== 'object' || samples === null) return {};
  return Object.fromEntries(
    Object.entries(samples).filter(
      (entry): entry is [string, object[]] => Array.isArray(entry[1]) && entry[1].every((item) => typeof item === 'object' && item !== null),
    ),
  );
}

/** The root's `meta.eventLabels`: how events that are not tool calls are drawn (`end` → `final answer`). */
function eventLabels(machine: AnyStateMachine): Record<string, string> {
  const labels = (machine.root.meta as { eventLabels?: unknown } | undefined)?.eventLabels;
  if (typeof labels !== 'object' || labels === null) return {};
  return Object.fromEntries(Object.entries(labels).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

function knownEventTypes(node: AnyStateNode): string[] {
  const types = new Set<string>();
  const visit = (current: AnyStateNode) => {
    for (const type of current.transitions.keys()) if (type !== '' && !type.startsWith('xstate.') && type !== '*') types.add(type);
    for (const child of Object.values(current.states) as AnyStateNode[]) visit(child);
  };
  visit(node);
  return [...types];
}

function leafIds(snapshot: ExploredSnapshot): string[] {
  return (activeStateNodes(snapshot) ?? []).filter((node) => node.type === 'atomic' || node.type === 'final').map((node) => node.id);
}

function keyOf(snapshot: ExploredSnapshot): string {
  return JSON.stringify([snapshot.value, snapshot.context]);
}
