import { createAgent, createGroupChat } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import type { InspectionEvent } from 'xstate';
import { describe, expect, it } from 'vitest';

/**
 * XState's `assign` copies the context with `Object.assign({}, context, patch)`;
 * V8 can build such a copy of about 20 or more properties as a slow
 * dictionary, and then every later copy and read costs several times as much
 * (docs/performance.md, G2). The manager groups its fields instead.
 */
const MANAGER_CONTEXT_FIELD_LIMIT = 16;

describe('the group-chat manager context', () => {
  it(`keeps at most ${MANAGER_CONTEXT_FIELD_LIMIT} top-level fields in every snapshot of a run`, async () => {
    const model = scriptedModel(() => ({ text: 'ok' }));
    const chat = createGroupChat({
      agents: ['a', 'b'].map((name) => createAgent({ name, model })),
      speakerSelection: 'round_robin',
      maxRounds: 3,
    });
    const fieldCounts: number[] = [];
    const isManager = (event: InspectionEvent) => (event.actorRef as unknown as { src: { id?: string } }).src.id === 'groupChat';
    const inspect = (event: InspectionEvent) => {
      if (event.type !== '@xstate.snapshot' || !isManager(event)) return;
      fieldCounts.push(Object.keys((event.snapshot as unknown as { context: object }).context).length);
    };
    const result = await chat.run('Go.', { inspect }).result;

    expect(result.rounds).toBe(3);
    expect(fieldCounts.length).toBeGreaterThan(3);
    expect(Math.max(...fieldCounts)).toBeLessThanOrEqual(MANAGER_CONTEXT_FIELD_LIMIT);
  });
});
