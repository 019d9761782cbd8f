/**
 * Provider overhead over the wire: a streamed reply of many small text
 * chunks plus a tool call, through each provider's real client against the
 * local test servers (so the figures include the server and HTTP on
 * 127.0.0.1), and how long an abort takes to close the connection.
 */
import { type ChatModel, msg } from '@agentchart/core';
import { ollama, openai } from '@agentchart/providers';
import { lastValueFrom, toArray } from 'rxjs';
import { startOllamaServer } from '../test/providers/wire/ollamaWire.js';
import { startOpenAIServer } from '../test/providers/wire/openaiWire.js';
import { add } from '../test/providers/wire/providerAdapters.js';
import type { WireServer } from '../test/providers/wire/wireServer.js';

const CHUNKS = 2000;
const REPLIES = 5;

export async function runBenchmark(): Promise<void> {
  const cases: Array<[string, () => Promise<WireServer>, (url: string) => ChatModel]> = [
    ['ollama', startOllamaServer, (url) => ollama({ model: 'bench', host: url, maxRetries: 0 })],
    ['openai', () => startOpenAIServer(), (url) => openai({ model: 'bench', baseURL: `${url}/v1`, maxRetries: 0 })],
  ];
  for (const [name, start, makeModel] of cases) {
    const server = await start();
    const model = makeModel(server.url);
    const text = Array.from({ length: CHUNKS }, (_, index) => `w${index} `);
    const request = { messages: [msg.user('go')], tools: [add.spec], toolChoice: 'auto' as const };

    server.script({ text: ['warm'] });
    await lastValueFrom(model.stream(request).pipe(toArray()));
    let events = 0;
    const started = performance.now();
    for (let reply = 0; reply < REPLIES; reply++) {
      server.script({ text, toolCalls: [{ name: 'add', arguments: { a: 1, b: 2 }, id: 'call_1' }] });
      events += (await lastValueFrom(model.stream(request).pipe(toArray()))).length;
    }
    const elapsed = performance.now() - started;

    server.script({ text: ['a', 'b', 'c'], hangAfter: 2 });
    const controller = new AbortController();
    const abortStarted = await new Promise<number>((resolve) => {
      let at = 0;
      model.stream({ ...request, signal: controller.signal }).subscribe({
        next: () => {
          if (at === 0) {
            at = performance.now();
            controller.abort();
            resolve(at);
          }
        },
        error: () => undefined,
      });
    });
    await server.connectionEnd(REPLIES + 1);
    const abortMs = performance.now() - abortStarted;
    await server.close();

    console.log(
      `${name.padEnd(7)} ${REPLIES} replies × ${CHUNKS} chunks + 1 tool call: ${(elapsed / REPLIES).toFixed(1)} ms/reply, ` +
        `${Math.round(events / (elapsed / 1000))} events/s; abort → server sees connection closed in ${abortMs.toFixed(1)} ms`,
    );
  }
}
