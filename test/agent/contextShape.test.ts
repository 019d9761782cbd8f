import { createAgent } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/**
 * XState's `assign` copies the context with `Object.assign({}, context, patch)`.
 * V8 builds an object of 20 or more properties made that way as a slow
 * dictionary: every later copy and read costs about ten times as much, on
 * every step of every run (docs/performance.md). Group fields instead.
 */
const V8_FAST_OBJECT_LIMIT = 19;

describe('the agent machine context', () => {
  it(`keeps at most ${V8_FAST_OBJECT_LIMIT} top-level fields, at the start and after a tool step`, async () => {
    const echo = defineTool({ name: 'echo', description: 'Echoes.', parameters: z.object({ text: z.string() }), execute: ({ text }) => text });
    const model = scriptedModel([{ toolCalls: [{ name: 'echo', arguments: { text: 'hi' } }] }, { text: 'done' }]);
    const run = createAgent({ name: 'shape', model, tools: [echo] }).run('Go.');
    const fieldsAtStart = Object.keys(run.actor.getSnapshot().context);
    await run.result;
    const fieldsAtEnd = Object.keys(run.actor.getSnapshot().context);
    for (const fields of [fieldsAtStart, fieldsAtEnd]) {
      expect(fields.length, `context fields: ${fields.join(', ')}`).toBeLessThanOrEqual(V8_FAST_OBJECT_LIMIT);
    }
  });
});
