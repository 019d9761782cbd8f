import { type TransportErrors, idleTimeoutError, tooLargeError } from './transportErrors.js';

/** The caps and the idle timeout a line reader applies. */
export interface LineLimits {
  maxLineBytes: number;
  maxReplyBytes: number;
  idleTimeoutMs: number;
  /**
   * The wait for the body's first piece, in ms (default `idleTimeoutMs`):
   * servers that send headers at once still have to read the prompt first,
   * which on a long context can take longer than a pause mid-reply.
   */
  firstChunkTimeoutMs?: number;
}

const NEWLINE = 0x0a;
const decoder = new TextDecoder();

/**
 * The lines of a streamed body, in time linear in its size: bytes are kept
 * as the chunks that arrived and decoded once per line (a line split over
 * a thousand chunks costs one concatenation, not a thousand). A line ends
 * at `\n`; a trailing `\r` is dropped; the last line needs no `\n`.
 * Past `maxLineBytes` in one line or `maxReplyBytes` in all, or after
 * `idleTimeoutMs` without a chunk, reading stops (the body is cancelled,
 * which closes the connection) with a ModelError.
 *
 * @example
 * for await (const line of boundedLines(response.body, limits, errors)) handle(JSON.parse(line));
 */
export async function* boundedLines(body: ReadableStream<Uint8Array>, limits: LineLimits, errors: TransportErrors): AsyncGenerator<string> {
  const reader = body.getReader();
  const pending: Uint8Array[] = [];
  let pendingBytes = 0;
  let total = 0;
  let finished = false;
  // One timer for the whole stream, re-armed per chunk (no timer or race per read): when it fires it
  // cancels the body, which ends the pending read, and the silence is reported as what it was.
  let silentFor: number | undefined;
  const arm = (ms: number) =>
    setTimeout(() => {
      silentFor = ms;
      void reader.cancel().catch(() => undefined);
    }, ms);
  let timer = arm(Math.max(limits.firstChunkTimeoutMs ?? limits.idleTimeoutMs, limits.idleTimeoutMs));
  let first = true;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (silentFor !== undefined) throw idleTimeoutError(errors, silentFor);
      if (done) break;
      if (first) {
        first = false;
        clearTimeout(timer);
        timer = arm(limits.idleTimeoutMs);
      } else timer.refresh();
      total += value.byteLength;
      if (total > limits.maxReplyBytes) throw tooLargeError(errors, 'reply', limits.maxReplyBytes, 'maxReplyBytes');
      let start = 0;
      for (let end = value.indexOf(NEWLINE); end !== -1; end = value.indexOf(NEWLINE, start)) {
        pending.push(value.subarray(start, end));
        pendingBytes += end - start;
        if (pendingBytes > limits.maxLineBytes) throw tooLargeError(errors, 'line', limits.maxLineBytes, 'maxLineBytes');
        yield takeLine(pending);
        pendingBytes = 0;
        start = end + 1;
      }
      if (start < value.byteLength) {
        pending.push(value.subarray(start));
        pendingBytes += value.byteLength - start;
        if (pendingBytes > limits.maxLineBytes) throw tooLargeError(errors, 'line', limits.maxLineBytes, 'maxLineBytes');
      }
    }
    finished = true;
    if (pendingBytes > 0) yield takeLine(pending);
  } finally {
    clearTimeout(timer);
    if (!finished) await reader.cancel().catch(() => undefined);
    reader.releaseLock();
  }
}

function takeLine(pending: Uint8Array[]): string {
  const bytes = pending.length === 1 ? (pending[0] as Uint8Array) : concat(pending);
  pending.length = 0;
  const line = decoder.decode(bytes);
  return line.endsWith('\r') ? line.slice(0, -1) : line;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const size = parts.reduce((sum, part) => sum + part.byteLength, 0);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.byteLength;
  }
  return out;
}
