import { REDACTED, createSanitizer, isSecretKey, sanitizeValue } from '@agentchart/inspect';
import { describe, expect, it } from 'vitest';
import { createMachine } from 'xstate';

describe('sanitizeValue', () => {
  it('calls toJSON once per value, as JSON.stringify does (an XState machine returns copies that have toJSON again)', () => {
    const again = { kind: 'copy', toJSON: () => ({ ...again }) };
    expect(sanitizeValue({ again })).toEqual({ again: { kind: 'copy' } });
    const machine = createMachine({ id: 'm', initial: 'a', states: { a: { on: { go: 'b' } }, b: {} } });
    expect(sanitizeValue({ machine }, { maxDepth: 64 })).toMatchObject({
      machine: { id: 'm', states: { a: { on: { go: [{ target: ['#m.b'], source: '#m.a', eventType: 'go' }] } } } },
    });
  });

  it('redacts secrets by key, in any nesting, including OpenAPI auth settings', () => {
    const value = {
      apiKey: 'k1',
      headers: { Authorization: 'Basic abc', 'X-API-Key': 'k2', accept: 'json' },
      openapi: { auth: { type: 'bearer', token: 't1' }, securitySchemes: { key: { in: 'header' } } },
      access_token: 't2',
      client_secret: 's1',
      password: 'p1',
      usage: { inputTokens: 3, outputTokens: 4 },
    };
    expect(sanitizeValue(value)).toEqual({
      apiKey: REDACTED,
      headers: { Authorization: REDACTED, 'X-API-Key': REDACTED, accept: 'json' },
      openapi: { auth: REDACTED, securitySchemes: REDACTED },
      access_token: REDACTED,
      client_secret: REDACTED,
      password: REDACTED,
      usage: { inputTokens: 3, outputTokens: 4 },
    });
  });

  it('redacts credentials by shape whatever their key (the scheme word of a Bearer credential stays)', () => {
    expect(sanitizeValue(['Bearer abcdefgh12345', 'sk-abcdefghijklmnop1234', 'a plain sentence'])).toEqual([
      `Bearer ${REDACTED}`,
      REDACTED,
      'a plain sentence',
    ]);
    expect(isSecretKey('maxTokens')).toBe(false);
    expect(isSecretKey('refreshToken')).toBe(true);
  });

  it('drops runtime and functions, and names class instances instead of walking them', () => {
    class ChatClient {
      secret = 'x';
    }
    const value = { runtime: { model: {} }, step: 2, run: () => 1, client: new ChatClient(), when: new Date(0) };
    expect(sanitizeValue(value)).toEqual({ step: 2, client: '[ChatClient]', when: '1970-01-01T00:00:00.000Z' });
  });

  it('keeps the last items of a long history behind a count of what was left out', () => {
    const history = Array.from({ length: 100 }, (_, index) => ({ role: 'user', content: `m${index}` }));
    const clean = sanitizeValue({ messages: history }, { maxArrayItems: 5 }) as { messages: unknown[] };
    expect(clean.messages).toEqual([
      '[… 96 earlier items]',
      { role: 'user', content: 'm96' },
      { role: 'user', content: 'm97' },
      { role: 'user', content: 'm98' },
      { role: 'user', content: 'm99' },
    ]);
  });

  it('cuts long strings and says how much was cut', () => {
    expect(sanitizeValue('x'.repeat(50), { maxStringLength: 10 })).toBe(`${'x'.repeat(10)}…[+40 characters]`);
  });

  it('changes nothing when applied twice', () => {
    const value = { messages: Array.from({ length: 40 }, (_, i) => 'y'.repeat(i * 100)), token: 'abc', cycle: {} as Record<string, unknown> };
    value.cycle.self = value.cycle;
    const once = sanitizeValue(value, { maxArrayItems: 8, maxStringLength: 500 });
    expect(sanitizeValue(once, { maxArrayItems: 8, maxStringLength: 500 })).toEqual(once);
    expect((once as { cycle: unknown }).cycle).toEqual({ self: '[circular]' });
  });

  it('gives the same results when it reuses the parts shared by successive snapshots', () => {
    const sanitize = createSanitizer({ maxArrayItems: 4 });
    const shared = { role: 'tool', content: 'z'.repeat(3000), headers: { authorization: 'Basic xyz' } };
    const looped: Record<string, unknown> = { name: 'loop' };
    looped.self = looped;
    const snapshots = [
      { messages: [shared], looped },
      { messages: [shared, { role: 'user', content: 'next' }], looped, again: shared },
      { messages: [shared, shared, shared, shared, shared], nested: { looped } },
    ];
    for (const snapshot of snapshots) expect(sanitize(snapshot)).toEqual(sanitizeValue(snapshot, { maxArrayItems: 4 }));
  });
});
