/**
 * One very long stream line — a reply of one 12 MB or 24 MB piece, sent in
 * 64 KiB writes — through agentchart's own bounded line reader (both
 * providers), and, at 12 MB, through the npm clients' stream parsing the
 * providers used before (`ollama`'s NDJSON, `openai`'s SSE), interleaved in
 * one run. The clients re-scan their buffer on every chunk, so their time
 * grows with the square of the line; the bounded reader's grows linearly.
 */
import { type ChatModel, msg } from '@agentchart/core';
import { ollama, openai } from '@agentchart/providers';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { lastValueFrom, toArray } from 'rxjs';
import { startOllamaServer } from '../test/providers/wire/ollamaWire.js';
import { startOpenAIServer } from '../test/providers/wire/openaiWire.js';
import type { WireServer } from '../test/providers/wire/wireServer.js';

// The clients are the providers' dependencies, not the workspace root's: load them from there (run from the repository root).
const requireFromProviders = createRequire(join(process.cwd(), 'packages/providers/package.json'));
type Drainable = AsyncIterable<unknown>;
const { Ollama } = requireFromProviders('ollama') as {
  Ollama: new (config: { host: string }) => { chat(request: Record<string, unknown>): Promise<Drainable> };
};
const OpenAI = (
  requireFromProviders('openai') as {
    default: new (config: Record<string, unknown>) => { chat: { completions: { create(body: Record<string, unknown>): Promise<Drainable> } } };
  }
).default;

const PIECE = 64 * 1024;
const request = { messages: [msg.user('go')], tools: [], toolChoice: 'none' as const };

function ollamaFrames(bytes: number): string[] {
  const head = '{"model":"bench","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":"';
  const done = '{"model":"bench","created_at":"2026-01-01T00:00:00Z","message":{"role":"assistant","content":""},"done":true,"done_reason":"stop"}\n';
  return [head, ...pieces(bytes), '"},"done":false}\n', done];
}

function openaiFrames(bytes: number): string[] {
  const head = 'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{"content":"';
  const finish =
    'data: {"id":"c","object":"chat.completion.chunk","created":1,"model":"bench","choices":[{"index":0,"delta":{},"finish_reason":"stop"}]}\n\n';
  return [head, ...pieces(bytes), '"},"finish_reason":null}]}\n\n', finish, 'data: [DONE]\n\n'];
}

function pieces(bytes: number): string[] {
  const piece = 'x'.repeat(PIECE);
  return Array.from({ length: Math.ceil(bytes / PIECE) }, () => piece);
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await run();
  return performance.now() - started;
}

export async function runBenchmark(): Promise<void> {
  const ollamaServer = await startOllamaServer();
  const openaiServer = await startOpenAIServer();
  const limits = { maxRetries: 0, maxLineBytes: 64 * 1024 * 1024, maxReplyBytes: 128 * 1024 * 1024 };
  const ours: Array<[string, WireServer, ChatModel, (bytes: number) => string[]]> = [
    ['ollama()', ollamaServer, ollama({ model: 'bench', host: ollamaServer.url, ...limits }), ollamaFrames],
    ['openai()', openaiServer, openai({ model: 'bench', baseURL: `${openaiServer.url}/v1`, compat: 'openai', ...limits }), openaiFrames],
  ];
  const lines: string[] = [];
  for (const megabytes of [12, 24]) {
    for (const [name, server, model, frames] of ours) {
      server.script({ frames: frames(megabytes * 1024 * 1024) });
      const ms = await timed(() => lastValueFrom(model.stream(request).pipe(toArray())));
      lines.push(`${name.padEnd(22)} one ${megabytes} MB line: ${ms.toFixed(0)} ms`);
    }
  }
  const bytes = 12 * 1024 * 1024;
  ollamaServer.script({ frames: ollamaFrames(bytes) });
  const ollamaClient = await timed(async () => {
    const stream = await new Ollama({ host: ollamaServer.url }).chat({ model: 'bench', messages: [{ role: 'user', content: 'go' }], stream: true });
    for await (const _ of stream) {
      // drain
    }
  });
  lines.push(`${'ollama npm client'.padEnd(22)} one 12 MB line: ${ollamaClient.toFixed(0)} ms`);
  openaiServer.script({ frames: openaiFrames(bytes) });
  const openaiClient = await timed(async () => {
    const client = new OpenAI({ apiKey: 'x', baseURL: `${openaiServer.url}/v1`, maxRetries: 0 });
    const stream = await client.chat.completions.create({ model: 'bench', messages: [{ role: 'user', content: 'go' }], stream: true });
    for await (const _ of stream) {
      // drain
    }
  });
  lines.push(`${'openai npm client'.padEnd(22)} one 12 MB line: ${openaiClient.toFixed(0)} ms`);
  await ollamaServer.close();
  await openaiServer.close();
  for (const line of lines) console.log(line);
}
