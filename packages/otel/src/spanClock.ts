import type { HrTime } from '@opentelemetry/api';

/**
 * Now, as OpenTelemetry's high-resolution time: the process's monotonic
 * clock (`performance.now()`) from its start (`performance.timeOrigin`).
 * Every start, end and event time of the spans of one `genAiTracing` comes
 * from it, so a child never ends after its parent and a span never ends after
 * the next one starts (the SDK's own defaults mix whole-millisecond wall-clock
 * starts with high-resolution ends).
 *
 * @example
 * span.end(highResolutionNow());
 */
export function highResolutionNow(): HrTime {
  const origin = performance.timeOrigin;
  const originSeconds = Math.floor(origin / 1000);
  const nanos = Math.round((origin - originSeconds * 1000) * 1e6) + Math.round(performance.now() * 1e6);
  return [originSeconds + Math.floor(nanos / 1e9), nanos % 1e9];
}
