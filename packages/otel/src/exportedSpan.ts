import { redactText } from '@agentchart/core';
import { cutText, exportedName } from '@agentchart/core/internal';
import type {
  Attributes,
  AttributeValue,
  Context,
  Exception,
  HrTime,
  Link,
  Span,
  SpanContext,
  SpanOptions,
  SpanStatus,
  TimeInput,
  Tracer,
} from '@opentelemetry/api';
import { CONTENT_ATTRIBUTES, TEXT_ATTRIBUTES } from './genAiAttributes.js';

/** How values are bounded on their way out. */
export interface ExportLimits {
  /** The clock of every start, end and event time. */
  now: () => HrTime;
  /** How long a text (a reason, an error message) may be. */
  maxTextLength: number;
}

/** Starts spans whose every name, attribute, event, status and exception is bounded (see `ExportedSpan`). */
export type StartSpan = (name: string, options: SpanOptions, parent: Context | undefined) => Span;

/**
 * Starts spans on `tracer` that go out bounded: see `ExportedSpan`.
 *
 * @example
 * const startSpan = exportedSpans(tracer, { now: highResolutionNow, maxTextLength: 2000 });
 * const span = startSpan('execute_tool get_weather', { attributes }, parent);
 */
export function exportedSpans(tracer: Tracer, limits: ExportLimits): StartSpan {
  return (name, options, parent) => {
    const bounded: SpanOptions = { ...options, startTime: options.startTime ?? limits.now() };
    if (options.attributes !== undefined) bounded.attributes = boundedAttributes(options.attributes, limits);
    return new ExportedSpan(tracer.startSpan(exportedName(name), bounded, parent), limits);
  };
}

/**
 * A span whose names and values are bounded before the SDK sees them, and
 * whose times all come from one clock. Names the model wrote reach span
 * names and attributes (a tool it made up, a call id): every string
 * attribute is redacted and cut at `MAX_EXPORTED_NAME_LENGTH`, texts
 * (`TEXT_ATTRIBUTES`, the status message, an exception) at `maxTextLength`;
 * content (`CONTENT_ATTRIBUTES`) was sanitised when it was made.
 */
class ExportedSpan implements Span {
  constructor(
    private readonly span: Span,
    private readonly limits: ExportLimits,
  ) {}

  spanContext(): SpanContext {
    return this.span.spanContext();
  }

  setAttribute(key: string, value: AttributeValue): this {
    this.span.setAttribute(key, boundedValue(key, value, this.limits));
    return this;
  }

  setAttributes(attributes: Attributes): this {
    this.span.setAttributes(boundedAttributes(attributes, this.limits));
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (isTime(attributesOrTime)) this.span.addEvent(exportedName(name), attributesOrTime);
    else this.span.addEvent(exportedName(name), attributesOrTime && boundedAttributes(attributesOrTime, this.limits), time ?? this.limits.now());
    return this;
  }

  addLink(link: Link): this {
    this.span.addLink(link);
    return this;
  }

  addLinks(links: Link[]): this {
    this.span.addLinks(links);
    return this;
  }

  setStatus(status: SpanStatus): this {
    this.span.setStatus(status.message === undefined ? status : { ...status, message: this.text(status.message) });
    return this;
  }

  updateName(name: string): this {
    this.span.updateName(exportedName(name));
    return this;
  }

  end(endTime?: TimeInput): void {
    this.span.end(endTime ?? this.limits.now());
  }

  isRecording(): boolean {
    return this.span.isRecording();
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const at = time ?? this.limits.now();
    if (typeof exception === 'string') {
      this.span.recordException(this.text(exception), at);
      return;
    }
    const bounded: { name: string; message: string; code?: string | number; stack?: string } = {
      name: exportedName(exception.name ?? 'Error'),
      message: this.text(exception.message ?? ''),
    };
    if (exception.code !== undefined) bounded.code = typeof exception.code === 'string' ? exportedName(exception.code) : exception.code;
    if (exception.stack !== undefined) bounded.stack = this.text(exception.stack);
    this.span.recordException(bounded, at);
  }

  private text(text: string): string {
    return cutText(redactText(text), this.limits.maxTextLength);
  }
}

function boundedAttributes(attributes: Attributes, limits: ExportLimits): Attributes {
  const bounded: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) bounded[key] = boundedValue(key, value, limits);
  return bounded;
}

function boundedValue(key: string, value: AttributeValue, limits: ExportLimits): AttributeValue {
  if (CONTENT_ATTRIBUTES.has(key)) return value;
  const bound = TEXT_ATTRIBUTES.has(key) ? (text: string) => cutText(redactText(text), limits.maxTextLength) : (text: string) => exportedName(text);
  if (typeof value === 'string') return bound(value);
  if (Array.isArray(value) && value.some((item) => typeof item === 'string')) {
    return (value as readonly (string | null | undefined)[]).map((item) => (typeof item === 'string' ? bound(item) : item)) as AttributeValue;
  }
  return value;
}

function isTime(value: Attributes | TimeInput | undefined): value is TimeInput {
  return typeof value === 'number' || value instanceof Date || Array.isArray(value);
}
