/**
 * The wait a `Retry-After` header asks for, in ms: delta-seconds or an HTTP
 * date; undefined when absent or unreadable. `retry-after-ms` (sent by some
 * OpenAI-compatible gateways) wins when present.
 *
 * @example
 * retryAfterMs(new Headers({ 'retry-after': '2' })); // 2000
 */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = Number(headers.get('retry-after-ms'));
  if (headers.has('retry-after-ms') && Number.isFinite(ms) && ms >= 0) return ms;
  const value = headers.get('retry-after')?.trim();
  if (!value) return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}
