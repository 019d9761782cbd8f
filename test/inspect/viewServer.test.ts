import { readFileSync } from 'node:fs';
import { get as httpGet } from 'node:http';
import { fileURLToPath } from 'node:url';
import { parseTrace, startViewServer } from '@agentchart/inspect';
import { describe, expect, it } from 'vitest';

const fixture = parseTrace(readFileSync(fileURLToPath(new URL('../fixtures/traces/v1-lookup.ndjson', import.meta.url)), 'utf8'));

/** Reads server-sent events until `count` data lines arrived. */
async function readEvents(url: string, count: number): Promise<unknown[]> {
  const controller = new AbortController();
  const response = await fetch(url, { signal: controller.signal });
  expect(response.headers.get('content-type')).toBe('text/event-stream');
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  const decoder = new TextDecoder();
  let text = '';
  const data = () =>
    text
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)) as unknown);
  while (data().length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  controller.abort();
  return data().slice(0, count);
}

describe('the live view server', () => {
  it('gives a page opened late the whole history, then what comes next', async () => {
    const view = await startViewServer({ port: 0 });
    try {
      const [first, ...rest] = fixture.entries;
      view.sink.write(fixture.header);
      view.sink.write(first as (typeof fixture.entries)[number]);
      const reading = readEvents(`${view.url}events`, fixture.entries.length + 1);
      await new Promise((resolve) => setTimeout(resolve, 50));
      for (const entry of rest) view.sink.write(entry);
      expect(await reading).toEqual([fixture.header, ...fixture.entries]);
    } finally {
      await view.close();
    }
  });

  it('serves only its own page, with a policy that forbids anything from elsewhere', async () => {
    const view = await startViewServer({ port: 0 });
    try {
      expect(view.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{24}\/$/);
      const page = await fetch(view.url);
      expect(page.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect((await fetch(`${view.url}machines/nothing.svg`)).status).toBe(404);
      expect((await fetch(`${view.url}elsewhere`)).status).toBe(404);
    } finally {
      await view.close();
    }
  });

  it('says what to do when its port is taken', async () => {
    const first = await startViewServer({ port: 0 });
    const port = Number(new URL(first.url).port);
    try {
      await expect(startViewServer({ port })).rejects.toThrow(`Port ${port} on 127.0.0.1 is in use: pass another port, or 0 for a free one.`);
    } finally {
      await first.close();
    }
  });
});

/** A GET with the headers a browser (or an attacker's page) would send; fetch cannot set `Host`. */
function rawGet(url: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpGet(url, { headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
  });
}

describe('the live view answers only its own launch, on loopback names', () => {
  it('the repro: a rebinding Host gets nothing, not the trace', async () => {
    const view = await startViewServer({ port: 0 });
    try {
      view.sink.write(fixture.header);
      const { port } = new URL(view.url);
      const rebound = await rawGet(`${view.url}trace.ndjson`, { Host: `rebind.attacker.example:${port}` });
      expect(rebound.status).toBe(421);
      expect(rebound.body).toBe('The live view answers only to 127.0.0.1 and localhost: open the URL it printed.');
      expect((await rawGet(`${view.url}trace.ndjson`, { Host: `localhost:${port}` })).status).toBe(200);
      expect((await rawGet(`${view.url}trace.ndjson`, { Host: `127.0.0.1:${port}` })).body).toContain('agentchart-trace');
    } finally {
      await view.close();
    }
  });

  it('refuses a foreign Origin and accepts its own', async () => {
    const view = await startViewServer({ port: 0 });
    try {
      const { port } = new URL(view.url);
      const foreign = await rawGet(`${view.url}trace.ndjson`, { Origin: 'https://attacker.example' });
      expect(foreign).toEqual({ status: 403, body: 'The live view does not answer pages from other origins.' });
      expect((await rawGet(`${view.url}trace.ndjson`, { Origin: `http://localhost:${port}` })).status).toBe(200);
      expect((await rawGet(`${view.url}trace.ndjson`, { Origin: `http://127.0.0.1:${Number(port) + 1}` })).status).toBe(403);
    } finally {
      await view.close();
    }
  });

  it('needs the per-launch token: without it, or with another, every path is refused', async () => {
    const view = await startViewServer({ port: 0 });
    const other = await startViewServer({ port: 0 });
    try {
      const { origin } = new URL(view.url);
      const token = new URL(view.url).pathname.split('/')[1] as string;
      expect(token).not.toBe(new URL(other.url).pathname.split('/')[1]);
      for (const path of ['/', '/trace.ndjson', '/events', '/app.js', `/${token.slice(1)}/trace.ndjson`, `/${token}x/trace.ndjson`]) {
        const response = await fetch(`${origin}${path}`);
        expect(response.status, path).toBe(403);
        expect(await response.text()).toBe('This live view needs the token in its URL: open the exact address `agentchart view` printed.');
      }
      expect((await fetch(`${view.url}trace.ndjson`)).status).toBe(200);
    } finally {
      await view.close();
      await other.close();
    }
  });

  it('serves trace lines redacted, even from a trace that was written without redaction', async () => {
    const view = await startViewServer({ port: 0 });
    try {
      view.sink.write({ ...fixture.header, title: 'key sk-abcdefghijklmnopqrstuvwx leaked', apiKey: 'plain' } as never);
      const served = await (await fetch(`${view.url}trace.ndjson`)).text();
      expect(served).not.toContain('sk-abcdefghijklmnopqrstuvwx');
      expect(served).not.toContain('plain');
      expect(served).toContain('key [redacted] leaked');
    } finally {
      await view.close();
    }
  });
});
