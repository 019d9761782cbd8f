import type { ModelError } from '@agentchart/core';
import { describe, expect, it } from 'vitest';
import { boundedLines } from '../../../packages/providers/src/transport/boundedLines.js';
import { sseEvents } from '../../../packages/providers/src/transport/sseEvents.js';
import { ollamaTransportErrors } from '../../../packages/providers/src/ollama/ollamaErrors.js';

const errors = ollamaTransportErrors({ host: 'http://127.0.0.1:11434', model: 'qwen3' });
const limits = { maxLineBytes: 64, maxReplyBytes: 1024, idleTimeoutMs: 1_000 };

function body(...chunks: Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(chunk);
      controller.close();
    },
  });
}

async function collect<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('boundedLines', () => {
  it('joins a line split over chunks — inside a multi-byte character too — drops \\r and keeps a last line without \\n', async () => {
    const bytes = new TextEncoder().encode('{"c":"5 €"}\r\nsecond\nlast');
    const euro = bytes.indexOf(0xe2);
    const chunks = [bytes.subarray(0, euro + 1), bytes.subarray(euro + 1, euro + 2), bytes.subarray(euro + 2, 16), bytes.subarray(16)];
    expect(await collect(boundedLines(body(...chunks), limits, errors))).toEqual(['{"c":"5 €"}', 'second', 'last']);
  });

  it('allows a line of exactly maxLineBytes and refuses one byte more', async () => {
    const exact = new TextEncoder().encode(`${'a'.repeat(64)}\n`);
    expect(await collect(boundedLines(body(exact), limits, errors))).toEqual(['a'.repeat(64)]);
    const over = new TextEncoder().encode(`${'a'.repeat(65)}\n`);
    const error = await collect(boundedLines(body(over.subarray(0, 30), over.subarray(30)), limits, errors)).catch((e: unknown) => e);
    expect((error as ModelError).code).toBe('MODEL_RESPONSE_TOO_LARGE');
  });

  it('reads SSE events: multi-line data joined, comments and id/retry skipped, event names kept', async () => {
    const text = ': keep-alive\nid: 1\nretry: 10\nevent: message\ndata: {"a":\ndata: 1}\n\ndata: [DONE]\n\n';
    const events = await collect(
      sseEvents(boundedLines(body(new TextEncoder().encode(text)), { ...limits, maxLineBytes: 1024 }, errors), 1024, errors),
    );
    expect(events).toEqual([{ event: 'message', data: '{"a":\n1}' }, { data: '[DONE]' }]);
  });
});
