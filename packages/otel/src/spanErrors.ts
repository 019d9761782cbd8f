import type { ErrorInfo } from '@agentchart/core';
import { type Span, SpanStatusCode } from '@opentelemetry/api';
import { ATTR } from './genAiAttributes.js';

/**
 * Marks a span failed: status ERROR with the message, `error.type` (the
 * error's stable `code` when it has one, else its class name) and the
 * exception as a span event.
 */
export function recordError(span: Span, error: ErrorInfo): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error.message });
  span.setAttribute(ATTR.errorType, error.code ?? error.name);
  const exception: { name: string; message: string; code?: string; stack?: string } = { name: error.name, message: error.message };
  if (error.code !== undefined) exception.code = error.code;
  if (error.stack !== undefined) exception.stack = error.stack;
  span.recordException(exception);
}
