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

  it('reject a message of an unknown role or without content', () => {
    expect(MessageSchema.safeParse({ role: 'bogus', content: 'x' }).success).toBe(false);
    expect(MessageSchema.safeParse({ role: 'user' }).success).toBe(false);
  });
});
