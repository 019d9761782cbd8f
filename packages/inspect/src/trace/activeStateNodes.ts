import type { AnyStateNode } from 'xstate';

/** What `activeStateNodes` reads of a machine snapshot: its public `machine` and `value`. */
export interface MachineSnapshotLike {
  value?: unknown;
  machine?: { root?: AnyStateNode };
}

/**
 * The state nodes a machine snapshot is in, from the root down (a parent
 * before its children, regions in their order), found by walking the
 * snapshot's `value` through `snapshot.machine`. `undefined` for a snapshot
 * that is not a machine's.
 *
 * @example
 * activeStateNodes(actor.getSnapshot())?.map((node) => node.id); // ['agent', 'agent.thinking']
 */
export function activeStateNodes(snapshot: MachineSnapshotLike): AnyStateNode[] | undefined {
  const root = snapshot.machine?.root;
  if (root === undefined || snapshot.value === undefined) return undefined;
  const nodes: AnyStateNode[] = [];
  const visit = (node: AnyStateNode, value: unknown): void => {
    nodes.push(node);
    if (typeof value === 'string') {
      const child = node.states[value];
      if (child !== undefined) visit(child, {});
      return;
    }
    if (typeof value !== 'object' || value === null) return;
    for (const [key, childValue] of Object.entries(value)) {
      const child = node.states[key];
      if (child !== undefined) visit(child, childValue);
    }
  };
  visit(root, snapshot.value);
  return nodes;
}
