import { createWriteStream } from 'node:fs';
import type { TraceEntry, TraceHeader } from './traceFormat.js';

/** A line of a trace: the header or an entry. */
export type TraceLine = TraceHeader | TraceEntry;

/** Where a recorder writes: a file, memory, the live view. */
export interface TraceSink {
  write(line: TraceLine): void;
  close?(): void | Promise<void>;
}

/**
 * Writes a trace to a file as NDJSON, one line per write.
 *
 * @example
 * const recorder = createTraceRecorder({ sink: ndjsonFileSink('run.trace.ndjson') });
 */
export function ndjsonFileSink(path: string): TraceSink {
  const stream = createWriteStream(path, { encoding: 'utf8' });
  return {
    write: (line) => void stream.write(`${JSON.stringify(line)}\n`),
    close: () => new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve()))),
  };
}

/**
 * Keeps a trace in memory; `toNdjson()` gives its text.
 *
 * @example
 * const sink = memorySink();
 * // … record …
 * writeFileSync('run.trace.ndjson', sink.toNdjson());
 */
export function memorySink(): TraceSink & { readonly lines: TraceLine[]; toNdjson(): string } {
  const lines: TraceLine[] = [];
  return { lines, write: (line) => void lines.push(line), toNdjson: () => toNdjson(lines) };
}

/** Serialises trace lines as NDJSON text. */
export function toNdjson(lines: readonly TraceLine[]): string {
  return lines.map((line) => `${JSON.stringify(line)}\n`).join('');
}
