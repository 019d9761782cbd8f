import { readFileSync } from 'node:fs';
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
  const data = () => text.split('\n').filter((line) => line.startsWith('data: ')).map((line) => JSON.parse(line.slice(6)) as unknown);
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
      expect(view.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
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
