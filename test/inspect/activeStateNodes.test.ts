import { describe, expect, it } from 'vitest';
import { createActor, createMachine } from 'xstate';
import { activeStateNodes } from '../../packages/inspect/src/trace/activeStateNodes.js';

const machine = createMachine({
  id: 'm',
  initial: 'a',
  states: {
    a: { on: { go: 'b' } },
    b: {
      type: 'parallel',
      states: {
        left: { initial: 'one', states: { one: { on: { next: 'two' } }, two: {} } },
        right: { initial: 'x', states: { x: {} } },
      },
    },
  },
});

describe('activeStateNodes', () => {
  it('names the nodes XState holds active, parents before children, through nested and parallel states', () => {
    const actor = createActor(machine).start();
    const ids = () => activeStateNodes(actor.getSnapshot())?.map((node) => node.id);
    const xstateIds = () => (actor.getSnapshot() as unknown as { _nodes: { id: string }[] })._nodes.map((node) => node.id);
    expect(ids()).toEqual(['m', 'm.a']);
    actor.send({ type: 'go' });
    expect(ids()).toEqual(['m', 'm.b', 'm.b.left', 'm.b.left.one', 'm.b.right', 'm.b.right.x']);
    actor.send({ type: 'next' });
    expect(ids()).toEqual(['m', 'm.b', 'm.b.left', 'm.b.left.two', 'm.b.right', 'm.b.right.x']);
    expect(new Set(ids())).toEqual(new Set(xstateIds()));
  });

  it("is undefined for a snapshot that is not a machine's", () => {
    expect(activeStateNodes({ value: undefined })).toBeUndefined();
    expect(activeStateNodes({})).toBeUndefined();
  });
});
