import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  type ReadableSpan,
  SimpleSpanProcessor,
  type Span,
  type SpanProcessor,
} from '@opentelemetry/sdk-trace-base';

/** The order spans started in (start times can tie). */
const startOrder = new Map<string, number>();
let started = 0;
const startOrderProcessor: SpanProcessor = {
  onStart: (span: Span) => void startOrder.set(span.spanContext().spanId, started++),
  onEnd: () => undefined,
  forceFlush: async () => undefined,
  shutdown: async () => undefined,
};

/** A tracer whose finished spans land in memory. */
export function memoryTracing() {
  const exporter = new InMemorySpanExporter();
  const provider = new BasicTracerProvider({ spanProcessors: [startOrderProcessor, new SimpleSpanProcessor(exporter)] });
  return { exporter, tracer: provider.getTracer('agentchart-test'), spans: () => exporter.getFinishedSpans() };
}

/** The attributes shown by `spanTree`, in this order, when a span has them. */
const SHOWN = [
  'gen_ai.operation.name',
  'gen_ai.provider.name',
  'gen_ai.agent.name',
  'gen_ai.request.model',
  'gen_ai.tool.name',
  'gen_ai.tool.call.id',
  'gen_ai.response.finish_reasons',
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.output_tokens',
  'agentchart.usage.cost',
  'agentchart.stop_reason',
  'error.type',
];

/**
 * The finished spans as an indented tree (children in start order): name,
 * kind, the key attributes, an error status and the span events.
 */
export function spanTree(spans: readonly ReadableSpan[], shown: readonly string[] = SHOWN): string {
  const byParent = new Map<string | undefined, ReadableSpan[]>();
  const ids = new Set(spans.map((span) => span.spanContext().spanId));
  for (const span of spans) {
    const parentId = span.parentSpanContext?.spanId;
    const key = parentId !== undefined && ids.has(parentId) ? parentId : undefined;
    byParent.set(key, [...(byParent.get(key) ?? []), span]);
  }
  const lines: string[] = [];
  const walk = (parent: string | undefined, depth: number) => {
    const children = (byParent.get(parent) ?? []).slice().sort((a, b) => orderOf(a) - orderOf(b));
    for (const span of children) {
      const attributes = shown
        .filter((key) => span.attributes[key] !== undefined)
        .map((key) => `${key.replace(/^gen_ai\./, '')}=${JSON.stringify(span.attributes[key])}`);
      const status = span.status.code === SpanStatusCode.ERROR ? ' ERROR' : '';
      const events = span.events.filter((event) => event.name !== 'exception').map((event) => event.name);
      const parts = [`${span.name} [${SpanKind[span.kind]}]${status}`, ...attributes, ...(events.length > 0 ? [`events=${events.join(',')}`] : [])];
      lines.push(`${'  '.repeat(depth)}${parts.join(' ')}`);
      walk(span.spanContext().spanId, depth + 1);
    }
  };
  walk(undefined, 0);
  return lines.join('\n');
}

const orderOf = (span: ReadableSpan) => startOrder.get(span.spanContext().spanId) ?? Number.MAX_SAFE_INTEGER;

/** The one finished span of that name (throws when there is not exactly one). */
export function spanNamed(spans: readonly ReadableSpan[], name: string): ReadableSpan {
  const found = spans.filter((span) => span.name === name);
  if (found.length !== 1) throw new Error(`expected one span named "${name}", found ${found.length}: ${spans.map((span) => span.name).join(', ')}`);
  return found[0] as ReadableSpan;
}
