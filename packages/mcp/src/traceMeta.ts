/** The OpenTelemetry API, when the application has it installed (an optional peer dependency). */
let otel: Promise<typeof import('@opentelemetry/api') | undefined> | undefined;

/**
 * The trace context of the active OpenTelemetry span (`traceparent`,
 * `tracestate`, `baggage`, by the application's propagator) for a request's
 * `_meta`, so the server's spans join the caller's trace. `{}` without
 * `@opentelemetry/api` or an active span.
 *
 * @example
 * const _meta = { ...(await traceMeta()), progressToken: 'p1' };
 */
export async function traceMeta(): Promise<Record<string, string>> {
  otel ??= import('@opentelemetry/api').catch(() => undefined);
  const api = await otel;
  if (api === undefined) return {};
  const carrier: Record<string, string> = {};
  api.propagation.inject(api.context.active(), carrier);
  return carrier;
}
