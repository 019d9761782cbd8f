import { type AnyStateMachine, type AnyStateNode, getInitialSnapshot, getNextSnapshot } from 'xstate';
import type { GraphEdge } from './machineGraph.js';

interface ExploredSnapshot {
  value: unknown;
  context: unknown;
  _nodes?: AnyStateNode[];
}

/**
 * Finds a machine's transitions by running it: from the initial snapshot,
 * every event type the machine knows is tried (without payload) in every
 * reachable snapshot, and each move between states becomes an edge. This
 * draws machines whose rules live in guards on "any state" transitions (tool
 * rules) as what they allow, not as what they test. `undefined` when more
 * than `maxSnapshots` snapshots are reachable.
 *
 * @example
 * exploreEdges(compiled.machine); // [{ source: 'toolRules.start', target: 'toolRules.after:search', label: 'search', … }]
 */
export function exploreEdges(machine: AnyStateMachine, maxSnapshots = 2000): GraphEdge[] | undefined {
  const eventTypes = knownEventTypes(machine.root);
  const initial = getInitialSnapshot(machine) as unknown as ExploredSnapshot;
  const seen = new Set([keyOf(initial)]);
  const queue = [initial];
  const edges = new Map<string, GraphEdge>();
  while (queue.length > 0) {
    const snapshot = queue.shift() as ExploredSnapshot;
    for (const type of eventTypes) {
      let next: ExploredSnapshot;
      try {
        next = getNextSnapshot(machine, snapshot as never, { type }) as unknown as ExploredSnapshot;
      } catch {
        continue;
      }
      const key = keyOf(next);
      if (key === keyOf(snapshot)) continue;
      for (const source of leafIds(snapshot)) {
        for (const target of leafIds(next)) {
          edges.set(`${source}|${target}|${type}`, { source, target, event: type, label: type.replace(/^call\./, '') });
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
  return (snapshot._nodes ?? []).filter((node) => node.type === 'atomic' || node.type === 'final').map((node) => node.id);
}

function keyOf(snapshot: ExploredSnapshot): string {
  return JSON.stringify([snapshot.value, snapshot.context]);
}
