import { setToolCallTraceContext } from '@agentchart/core/internal';
import { type Context, propagation, trace } from '@opentelemetry/api';

/**
 * Offers a call's `execute_tool` span to the tool it runs
 * (`toolCallTraceContext` in core): the W3C `traceparent` (and whatever else
 * the application's propagator writes), so an MCP tool sends it in its
 * request's `_meta` and the server's spans join the call's. Without a
 * registered propagator the `traceparent` is written from the span itself.
 *
 * @example
 * publishToolCallContext(runId, call.id, trace.setSpan(parent, span));
 */
export function publishToolCallContext(runId: string, callId: string, spanContext: Context): void {
  const carrier: Record<string, string> = {};
  propagation.inject(spanContext, carrier);
  const span = trace.getSpanContext(spanContext);
  if (carrier.traceparent === undefined && span !== undefined && trace.isSpanContextValid(span)) {
    carrier.traceparent = `00-${span.traceId}-${span.spanId}-${(span.traceFlags & 0xff).toString(16).padStart(2, '0')}`;
  }
  setToolCallTraceContext(runId, callId, carrier);
}

/** The call's span ended: its tool no longer sends it. */
export function forgetToolCallContext(runId: string, callId: string): void {
  setToolCallTraceContext(runId, callId, undefined);
}
