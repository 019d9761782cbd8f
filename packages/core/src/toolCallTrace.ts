/**
 * The W3C trace context (`traceparent`, `tracestate`) of each tool call's
 * own span, by run and call id: a tracer (`@agentchart/otel`) records it when
 * it opens a call's `execute_tool` span and forgets it when the span ends; a
 * tool that calls out (an MCP tool) sends it on, so the callee's spans go
 * under the call's. Spans of a run are not made active in the OpenTelemetry
 * context, so this is how a running tool finds its own.
 */
const contexts = new Map<string, Readonly<Record<string, string>>>();

const keyOf = (runId: string, callId: string) => `${runId}\u0000${callId}`;

/**
 * Records (or, with `undefined`, forgets) the trace context of a call's span.
 *
 * @example
 * setToolCallTraceContext(runId, callId, { traceparent: '00-…-…-01' });
 */
export function setToolCallTraceContext(runId: string, callId: string, carrier: Readonly<Record<string, string>> | undefined): void {
  if (carrier === undefined) contexts.delete(keyOf(runId, callId));
  else contexts.set(keyOf(runId, callId), { ...carrier });
}

/**
 * The trace context of a call's span, when a tracer recorded one.
 *
 * @example
 * const _meta = { ...(toolCallTraceContext(ctx.runId, ctx.callId) ?? {}) };
 */
export function toolCallTraceContext(runId: string, callId: string): Readonly<Record<string, string>> | undefined {
  return contexts.get(keyOf(runId, callId));
}
