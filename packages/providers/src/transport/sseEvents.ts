import { type TransportErrors, invalidResponseError, tooLargeError } from './transportErrors.js';

/** One server-sent event: its `event:` name (if any) and its `data:` lines joined by `\n`. */
export interface SseEvent {
  event?: string;
  data: string;
}

const KNOWN_FIELDS = new Set(['data', 'event', 'id', 'retry']);

/**
 * Server-sent events from the lines of a body (see `boundedLines`), as the
 * HTML standard's event-stream format defines them: `field: value` lines, a
 * blank line dispatching the event, `:` comments skipped. One event's data
 * is capped at `maxEventBytes`. A line that is no SSE field at all — an HTML
 * page, a plain JSON body from a server that ignored `stream: true` — is
 * MODEL_RESPONSE_INVALID with an excerpt, not an event silently lost;
 * `strayLine` sees such a line first and may throw a better error.
 *
 * @example
 * for await (const { data } of sseEvents(boundedLines(body, limits, errors), limits.maxLineBytes, errors)) ...
 */
export async function* sseEvents(
  lines: AsyncIterable<string>,
  maxEventBytes: number,
  errors: TransportErrors,
  strayLine?: (line: string) => void,
): AsyncGenerator<SseEvent> {
  let data: string[] = [];
  let size = 0;
  let event: string | undefined;
  for await (const line of lines) {
    if (line === '') {
      if (data.length > 0) yield event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') };
      data = [];
      size = 0;
      event = undefined;
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    if (!KNOWN_FIELDS.has(field)) {
      strayLine?.(line);
      throw invalidResponseError(errors, 'a line that is not a server-sent event', line);
    }
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      size += value.length + 1;
      if (size > maxEventBytes) throw tooLargeError(errors, 'line', maxEventBytes, 'maxLineBytes');
      data.push(value);
    } else if (field === 'event') {
      event = value;
    }
  }
  if (data.length > 0) yield event === undefined ? { data: data.join('\n') } : { event, data: data.join('\n') };
}
