import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAgent } from '@agentchart/actors';
import { genAiTracing } from '@agentchart/otel';
import { scriptedModel } from '@agentchart/providers';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { describe, expect, it } from 'vitest';

interface OtlpSpan {
  name: string;
  parentSpanId?: string;
  spanId: string;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
}

/** A stand-in OTLP/HTTP collector on 127.0.0.1: it keeps the spans of every JSON export it receives. */
async function startCollector() {
  const spans: OtlpSpan[] = [];
  const paths: string[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      paths.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
        resourceSpans: { scopeSpans: { spans: OtlpSpan[] }[] }[];
      };
      for (const resource of body.resourceSpans) for (const scope of resource.scopeSpans) spans.push(...scope.spans);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://127.0.0.1:${port}/v1/traces`, spans, paths, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('export to an OTLP collector', () => {
  it('sends the GenAI spans of a run as OTLP/HTTP JSON, as docs/observability.md shows', async () => {
    const collector = await startCollector();
    const provider = new BasicTracerProvider({ spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: collector.url }))] });
    const tracing = genAiTracing({ tracer: provider.getTracer('my-app') });
    const model = scriptedModel([{ text: 'Hello.', usage: { inputTokens: 9, outputTokens: 2 } }], { name: 'qwen3:8b' });
    const run = createAgent({ name: 'greeter', model }).run('Hi');
    tracing.traceRun(run);
    await run.result;
    await provider.forceFlush();
    await provider.shutdown();
    await collector.close();

    expect(collector.paths).toEqual([`POST /v1/traces application/json`]);
    expect(collector.spans.map((span) => span.name)).toEqual(['chat qwen3:8b', 'invoke_agent greeter']);
    const [chat, agent] = collector.spans;
    expect(chat?.parentSpanId).toBe(agent?.spanId);
    const attribute = (span: OtlpSpan | undefined, key: string) => span?.attributes.find((entry) => entry.key === key)?.value;
    expect(attribute(chat, 'gen_ai.operation.name')).toEqual({ stringValue: 'chat' });
    expect(Number(attribute(chat, 'gen_ai.usage.input_tokens')?.intValue)).toBe(9);
  });
});
