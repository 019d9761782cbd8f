import { readFile } from 'node:fs/promises';
import { Observable } from 'rxjs';
import { TRACE_FORMAT, TRACE_VERSION } from '../constants.js';
import { TraceFormatError } from '../errors.js';
import { type Trace, type TraceEntry, TraceEntrySchema, TraceHeaderSchema } from './traceFormat.js';

/**
 * Parses a trace's NDJSON text and checks every line against the format.
 *
 * @example
 * const { header, entries } = parseTrace(readFileSync('run.trace.ndjson', 'utf8'));
 */
export function parseTrace(text: string): Trace {
  const lines = text.split('\n').map((line, index) => ({ line: index + 1, text: line.trim() }));
  const filled = lines.filter((line) => line.text !== '');
  const first = filled[0];
  if (!first) throw new TraceFormatError('TRACE_INVALID', 'The trace is empty: a trace starts with a header line.', { line: 1 });
  const headerJson = parseJson(first.text, first.line) as { format?: unknown; version?: unknown };
  if (headerJson?.format !== TRACE_FORMAT) {
    throw new TraceFormatError('TRACE_INVALID', `Line ${first.line} is not an agentchart trace header (format "${TRACE_FORMAT}").`, {
      line: first.line,
    });
  }
  if (typeof headerJson.version !== 'number' || headerJson.version > TRACE_VERSION) {
    throw new TraceFormatError(
      'TRACE_VERSION_UNSUPPORTED',
      `This trace is version ${String(headerJson.version)}; this agentchart reads versions up to ${TRACE_VERSION}. Update agentchart to read it.`,
      { version: headerJson.version },
    );
  }
  const header = TraceHeaderSchema.parse(headerJson);
  const entries = filled.slice(1).map(({ line, text: lineText }) => {
    const parsed = TraceEntrySchema.safeParse(parseJson(lineText, line));
    if (!parsed.success) {
      throw new TraceFormatError('TRACE_INVALID', `Line ${line} is not a valid trace entry: ${parsed.error.issues[0]?.message ?? 'unknown'}.`, {
        line,
      });
    }
    return parsed.data;
  });
  return { header, entries };
}

/**
 * Reads and parses a trace file.
 *
 * @example
 * const trace = await readTraceFile('run.trace.ndjson');
 */
export async function readTraceFile(path: string): Promise<Trace> {
  return parseTrace(await readFile(path, 'utf8'));
}

/**
 * Replays a trace's entries as an Observable: at once, or paced by their
 * recorded times (`speed` 1 = as recorded, 2 = twice as fast).
 *
 * @example
 * replayTrace(trace, { speed: 4 }).subscribe((entry) => view.publish(entry));
 */
export function replayTrace(trace: Trace, options: { speed?: number } = {}): Observable<TraceEntry> {
  const speed = options.speed ?? 0;
  return new Observable<TraceEntry>((subscriber) => {
    if (speed <= 0) {
      for (const entry of trace.entries) subscriber.next(entry);
      subscriber.complete();
      return undefined;
    }
    let index = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const startedAt = performance.now();
    const next = () => {
      const elapsed = (performance.now() - startedAt) * speed;
      while (index < trace.entries.length && (trace.entries[index] as TraceEntry).t <= elapsed) {
        subscriber.next(trace.entries[index++] as TraceEntry);
      }
      if (index >= trace.entries.length) return subscriber.complete();
      timer = setTimeout(next, Math.max(1, ((trace.entries[index] as TraceEntry).t - elapsed) / speed));
    };
    next();
    return () => clearTimeout(timer);
  });
}

function parseJson(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new TraceFormatError('TRACE_INVALID', `Line ${line} of the trace is not JSON.`, { line });
  }
}
