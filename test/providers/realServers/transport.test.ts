import { type ChatRequest, type ModelError, msg } from '@agentchart/core';
import { ollama, openai } from '@agentchart/providers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { collectEvents } from '../wire/collectEvents.js';
import { startOllamaServer } from '../wire/ollamaWire.js';
import { startOpenAIServer } from '../wire/openaiWire.js';
import { add, multiply } from '../wire/providerAdapters.js';
import type { WireServer } from '../wire/wireServer.js';

const ask = (overrides: Partial<ChatRequest> = {}): ChatRequest => ({
  messages: [msg.user('What is 2 + 3?')],
  tools: [add.spec, multiply.spec],
  toolChoice: 'auto',
  ...overrides,
});

const HTML_PAGE = ['<!DOCTYPE html>\n', '<html><head><title>Sign in</title></head>\n', '<body>Set-Cookie: session=secret</body></html>\n'];

/** Arguments nested `depth` objects deep. */
function deeplyNested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = {};
  for (let level = 0; level < depth; level++) value = { inner: value };
  return value;
}

const servers = {
  ollama: {
    start: () => startOllamaServer(),
    model: (url: string, extra: Record<string, unknown> = {}) => ollama({ model: 'qwen3', host: url, maxRetries: 0, ...extra }),
  },
  openai: {
    start: () => startOpenAIServer(),
    model: (url: string, extra: Record<string, unknown> = {}) => openai({ model: 'qwen3', baseURL: `${url}/v1`, maxRetries: 0, ...extra }),
  },
};

describe.each(Object.entries(servers))('transport a bad server cannot break: %s', (name, fake) => {
  let server: WireServer;
  afterEach(async () => {
    vi.restoreAllMocks();
    await server.close();
  });

  it('answers a 200 HTML page with MODEL_RESPONSE_INVALID quoting its start, printing nothing', async () => {
    server = await fake.start();
    server.script({ frames: HTML_PAGE });
    const printed = [vi.spyOn(console, 'warn'), vi.spyOn(console, 'log'), vi.spyOn(console, 'error')];
    const { events, error } = await collectEvents(fake.model(server.url).stream(ask()));
    expect(events).toEqual([]);
    expect((error as ModelError).code).toBe('MODEL_RESPONSE_INVALID');
    expect((error as ModelError).message).toContain('"<!DOCTYPE html>"');
    expect((error as ModelError).message).not.toContain('secret');
    for (const spy of printed) expect(spy).not.toHaveBeenCalled();
  });

  it('stops a line longer than maxLineBytes with MODEL_RESPONSE_TOO_LARGE and closes the connection', async () => {
    server = await fake.start();
    const prefix = name === 'ollama' ? '{"message":{"content":"' : 'data: {"choices":[{"delta":{"content":"';
    server.script({ frames: [prefix, 'a'.repeat(40_000), 'a'.repeat(40_000), 'never sent'], hangAfter: 3 });
    const { error } = await collectEvents(fake.model(server.url, { maxLineBytes: 50_000 }).stream(ask()));
    expect((error as ModelError).code).toBe('MODEL_RESPONSE_TOO_LARGE');
    expect((error as ModelError).message).toContain('longer than 50000 bytes');
    expect((error as ModelError).message).toContain('raise `maxLineBytes`');
    expect(await server.connectionEnd(0)).toEqual({ finished: false });
  });

  it('stops a reply longer than maxReplyBytes', async () => {
    server = await fake.start();
    server.script({ text: Array.from({ length: 50 }, () => 'word '.repeat(100)) });
    const { error } = await collectEvents(fake.model(server.url, { maxReplyBytes: 10_000 }).stream(ask()));
    expect((error as ModelError).code).toBe('MODEL_RESPONSE_TOO_LARGE');
    expect((error as ModelError).details).toMatchObject({ what: 'reply', limit: 10_000 });
  });

  it('reads at most maxErrorBodyBytes of a 50 MB error body', async () => {
    server = await fake.start();
    server.script({ httpError: { status: 500, body: null }, hugeErrorBytes: 50 * 1024 * 1024 });
    const { error } = await collectEvents(fake.model(server.url).stream(ask()));
    expect((error as ModelError).code).toBe('MODEL_HTTP_ERROR');
    expect((error as ModelError).message.length).toBeLessThan(1_200);
    expect((error as ModelError).details).toMatchObject({ status: 500, truncated: true });
    expect(String((error as ModelError).details.body).length).toBe(64 * 1024);
  });

  it('ends a stream that stalls after its first chunk with MODEL_TIMEOUT after idleTimeoutMs, closing the connection', async () => {
    server = await fake.start();
    server.script({ text: ['The sum', ' is', ' 5.'], hangAfter: 2 });
    const { events, error } = await collectEvents(fake.model(server.url, { idleTimeoutMs: 150 }).stream(ask()));
    expect(events.length).toBeGreaterThan(0);
    expect((error as ModelError).code).toBe('MODEL_TIMEOUT');
    expect((error as ModelError).details).toMatchObject({ phase: 'idle', idleTimeoutMs: 150 });
    expect((error as ModelError).message).toContain('raise `idleTimeoutMs`');
    expect(await server.connectionEnd(0)).toEqual({ finished: false });
  });

  it('waits for the first piece after the headers up to timeoutMs, not idleTimeoutMs (a long prompt being read)', async () => {
    server = await fake.start();
    server.script({ text: ['ok'], firstChunkDelayMs: 300 });
    const { events, error } = await collectEvents(fake.model(server.url, { idleTimeoutMs: 100, timeoutMs: 2_000 }).stream(ask()));
    expect(error).toBeUndefined();
    expect(events[0]).toEqual({ type: 'text-delta', text: 'ok' });
  });

  it('keeps one deadline across retries: a stalled server costs timeoutMs once, not once per retry', async () => {
    server = await fake.start();
    server.script({ stall: true }, { stall: true }, { stall: true });
    const started = Date.now();
    const { error } = await collectEvents(fake.model(server.url, { timeoutMs: 300, maxRetries: 2 }).stream(ask()));
    const elapsed = Date.now() - started;
    expect((error as ModelError).code).toBe('MODEL_TIMEOUT');
    expect(server.requests).toHaveLength(1);
    expect(elapsed).toBeLessThan(550);
  });

  it('honours Retry-After on 429 within the deadline, and gives up at once when it would pass the deadline', async () => {
    server = await fake.start();
    const tooMany = (seconds: string) => ({
      httpError: { status: 429, body: { error: 'server busy' } },
      headers: { 'retry-after': seconds },
    });
    server.script(tooMany('1'), { text: ['ok'] });
    const started = Date.now();
    const { events } = await collectEvents(fake.model(server.url, { maxRetries: 1 }).stream(ask()));
    expect(events[0]).toEqual({ type: 'text-delta', text: 'ok' });
    expect(Date.now() - started).toBeGreaterThanOrEqual(990);

    server.script(tooMany('30'));
    const quick = Date.now();
    const { error } = await collectEvents(fake.model(server.url, { maxRetries: 1, timeoutMs: 2_000 }).stream(ask()));
    expect((error as ModelError).code).toBe('MODEL_HTTP_ERROR');
    expect((error as ModelError).details.status).toBe(429);
    expect(Date.now() - quick).toBeLessThan(1_000);
    expect(server.requests).toHaveLength(3);
  });

  it('refuses a request that cannot be serialised with MODEL_REQUEST_INVALID, before anything is sent', async () => {
    server = await fake.start();
    const messages = [
      msg.user('Go'),
      msg.assistant('', [{ id: 'call_1', name: 'add', arguments: deeplyNested(10_000) }]),
      msg.tool('call_1', 'add', '5'),
    ];
    const { error } = await collectEvents(fake.model(server.url).stream(ask({ messages })));
    expect((error as ModelError).code).toBe('MODEL_REQUEST_INVALID');
    expect((error as ModelError).message).toContain('nested too deeply');
    expect((error as ModelError).message).toContain('nothing was sent');
    expect(server.requests).toHaveLength(0);
  });
});

describe('configuration', () => {
  it('refuses a transport setting that is not a positive number when the provider is created', () => {
    expect(() => ollama({ model: 'qwen3', idleTimeoutMs: 0 })).toThrowError('ollama({ idleTimeoutMs }) must be a positive number, got 0.');
    expect(() => openai({ model: 'qwen3', baseURL: 'http://127.0.0.1:1/v1', maxRetries: -1 })).toThrowError(
      'openai({ maxRetries }) must be a whole number of 0 or more, got -1.',
    );
  });
});
