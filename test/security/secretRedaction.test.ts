import { createAgent } from '@agentchart/actors';
import { REDACTED, defineTool, redactText, redactValue, registerSecrets } from '@agentchart/core';
import { isSecretKeyName } from '@agentchart/core/internal';
import { createTraceRecorder, memorySink, sanitizeValue } from '@agentchart/inspect';
import { openai, scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { sendJson, startHttpServer } from '../openapi/httpTestServer.js';
import { LEAKED_IN_TEXT, LEAKED_VALUES, ORDINARY_KEYS, SECRET_KEYS } from './secretCorpus.js';

const PLAIN_VALUE = 'plain-value-without-shape-42';

describe('the redaction service', () => {
  it('the corpus of leaked-secret shapes comes back clean, as values and inside longer text', () => {
    for (const secret of LEAKED_VALUES) {
      expect(redactText(secret), secret).toBe(REDACTED);
      const sentence = `the tool said (${secret}), then stopped`;
      expect(redactText(sentence), secret).toBe(`the tool said (${REDACTED}), then stopped`);
    }
    for (const { text, secret } of LEAKED_IN_TEXT) {
      const redacted = redactText(text);
      expect(redacted).not.toContain(secret);
      expect(redacted).toContain(REDACTED);
    }
    const everything = { values: LEAKED_VALUES, texts: LEAKED_IN_TEXT.map(({ text }) => text) };
    const asJson = JSON.stringify(redactValue(everything)) + JSON.stringify(sanitizeValue(everything, { maxStringLength: 100_000 }));
    for (const secret of [...LEAKED_VALUES, ...LEAKED_IN_TEXT.map(({ secret }) => secret)]) expect(asJson).not.toContain(secret);
  });

  it('redacts by key name (case and separators do not matter) and leaves look-alike names alone', () => {
    for (const key of SECRET_KEYS) expect(isSecretKeyName(key), key).toBe(true);
    for (const key of ORDINARY_KEYS) expect(isSecretKeyName(key), key).toBe(false);
    const record = Object.fromEntries([...SECRET_KEYS, ...ORDINARY_KEYS].map((key) => [key, PLAIN_VALUE]));
    const redacted = redactValue({ nested: [record] }).nested[0] as Record<string, unknown>;
    for (const key of SECRET_KEYS) expect(redacted[key], key).toBe(REDACTED);
    for (const key of ORDINARY_KEYS) expect(redacted[key], key).toBe(PLAIN_VALUE);
    // A secret-named flag holds no secret.
    expect(redactValue({ private: true, pin: null })).toEqual({ private: true, pin: null });
  });

  it('redacts registered credential values wherever they appear, until they are unregistered', () => {
    const forget = registerSecrets(['hunter2-correct-horse', 'x', undefined]);
    expect(redactText('login with hunter2-correct-horse please')).toBe(`login with ${REDACTED} please`);
    expect(redactText('x marks the spot')).toBe('x marks the spot'); // too short to register
    forget();
    expect(redactText('hunter2-correct-horse')).toBe('hunter2-correct-horse');
  });
});

describe('traces never hold secrets (the repro cases)', () => {
  it('secret keys, token values and sk-… inside text: in tool arguments, results, errors and assistant text', async () => {
    const sink = memorySink();
    const recorder = createTraceRecorder({ sink });
    const store = defineTool({
      name: 'store',
      description: 'Stores settings.',
      parameters: z.object({ settings: z.record(z.string(), z.string()), note: z.string() }),
      execute: ({ settings }) => ({ stored: Object.keys(settings), echo: settings }),
    });
    const fail = defineTool({
      name: 'fail',
      description: 'Fails.',
      parameters: z.object({}),
      execute: () => {
        throw new Error(`upstream said: Incorrect API key provided: ${LEAKED_VALUES[0]}`);
      },
    });
    const settings = {
      aws_secret_access_key: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
      openaiKey: 'abcdefghijklmnopqrstuvwxyz123456',
      pin: '48151623',
      jwt: LEAKED_VALUES[10] as string,
      github: LEAKED_VALUES[5] as string,
      google: LEAKED_VALUES[6] as string,
    };
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'store', arguments: { settings, note: `use ${LEAKED_VALUES[1]} for now` } },
          { name: 'fail', arguments: {} },
        ],
      },
      { text: `Done. Your key is ${LEAKED_VALUES[2]}, keep it safe.` },
    ]);
    const run = createAgent({ name: 'leaky', model, tools: [store, fail], detailedErrors: true }).run('Store my settings.', {
      inspect: recorder.inspect,
    });
    recorder.recordRun(run);
    await run.result;
    await recorder.close();
    const trace = sink.toNdjson();
    expect(trace).toContain('"toolName":"store"');
    expect(trace).toContain('Incorrect API key provided: [redacted]');
    for (const secret of [...Object.values(settings), LEAKED_VALUES[0], LEAKED_VALUES[1], LEAKED_VALUES[2]]) {
      expect(trace, secret).not.toContain(secret as string);
    }
  });

  it('a provider 401 that echoes the API key: neither the result, the events nor the trace hold it', async () => {
    const apiKey = 'sk-test-4f1b2c3d4e5f60718293a4b5c6d7e8f9';
    const server = await startHttpServer((_request, response) =>
      sendJson(response, 401, {
        error: {
          message: `Incorrect API key provided: ${apiKey}. You can find your API key at https://example.invalid.`,
          type: 'invalid_request_error',
          code: 'invalid_api_key',
        },
      }),
    );
    try {
      const sink = memorySink();
      const recorder = createTraceRecorder({ sink });
      const model = openai({ model: 'gpt-test', baseURL: `${server.url}/v1`, apiKey, maxRetries: 0 });
      const run = createAgent({ name: 'unlucky', model }).run('Hi.', { inspect: recorder.inspect });
      const events: unknown[] = [];
      run.events$.subscribe((event) => events.push(event));
      recorder.recordRun(run);
      const result = await run.result;
      await recorder.close();
      expect(server.requests[0]?.headers.authorization).toBe(`Bearer ${apiKey}`);
      expect(result.stopReason).toBe('error');
      expect(result.error?.message).toContain('Incorrect API key provided: [redacted]');
      expect(JSON.stringify(result)).not.toContain(apiKey);
      expect(JSON.stringify(events)).not.toContain(apiKey);
      expect(sink.toNdjson()).not.toContain(apiKey);
    } finally {
      await server.close();
    }
  });
});

describe('what the redaction leaves alone', () => {
  it('keeps prose, token counts and ordinary assignments readable', () => {
    for (const text of [
      'password: Expected string, received number',
      'maxTokens=512 inputTokens=3',
      'key=city, value=Oslo',
      'The keyboard is pinned to the wall by the author.',
      '{"private":true,"pin":null}',
      'sk-short',
    ]) {
      expect(redactText(text), text).toBe(text);
    }
  });
});
