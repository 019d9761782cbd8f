import { MessageSchema, RunEventSchema, msg } from '@agentchart/core';
import { describe, expect, it } from 'vitest';

describe('message schemas', () => {
  it('accept a transcript with a malformed call after a JSON round trip (which drops `arguments: undefined`)', () => {
    const call = { id: 'call_1', name: 'add', arguments: undefined, malformedArguments: '{"a":' };
    const transcript = JSON.parse(JSON.stringify([msg.user('2+3?'), msg.assistant('', [call]), msg.tool('call_1', 'add', 'Invalid', true)]));
    expect(transcript[1].toolCalls[0]).toEqual({ id: 'call_1', name: 'add', malformedArguments: '{"a":' });
    expect(transcript.map((message: unknown) => MessageSchema.safeParse(message).success)).toEqual([true, true, true]);
    const event = JSON.parse(JSON.stringify({ type: 'tool.call', runId: 'r', agent: 'a', step: 1, call }));
    expect(RunEventSchema.safeParse(event).success).toBe(true);
  });

  it('accept run events whose documented-absent fields JSON dropped', () => {
    const base = { runId: 'r', agent: 'a' };
    const events = [
      { type: 'state.changed', ...base, key: 'draft', value: 'v1', previous: undefined, deleted: false, version: 1 },
      { type: 'state.changed', ...base, key: 'draft', value: undefined, previous: 'v1', deleted: true, version: 2 },
      { type: 'approval.requested', ...base, step: 1, id: 'call_1', toolName: 'delete', arguments: undefined },
    ];
    const roundTripped = JSON.parse(JSON.stringify(events)) as unknown[];
    expect(roundTripped.map((event) => RunEventSchema.safeParse(event).success)).toEqual([true, true, true]);
  });

  it('reject a message of an unknown role or without content', () => {
    expect(MessageSchema.safeParse({ role: 'bogus', content: 'x' }).success).toBe(false);
    expect(MessageSchema.safeParse({ role: 'user' }).success).toBe(false);
  });
});
