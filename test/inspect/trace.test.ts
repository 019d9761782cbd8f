import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  TraceFormatError,
  type TraceEntryOf,
  createTraceRecorder,
  formatTimeline,
  memorySink,
  parseTrace,
  replayTrace,
  toNdjson,
} from '@agentchart/inspect';
import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { SECRET, lookupAgent } from './calculatorRun.js';

const fixture = (name: string) => readFileSync(fileURLToPath(new URL(`../fixtures/traces/${name}`, import.meta.url)), 'utf8');

async function recordLookupRun() {
  let clock = 0;
  const sink = memorySink();
  const recorder = createTraceRecorder({ sink, title: 'lookup', now: () => (clock += 1), startedAt: new Date(0) });
  const run = lookupAgent().run('How many books?', { inspect: recorder.inspect });
  recorder.recordRun(run);
  await run.result;
  await recorder.close();
  return sink;
}

describe('traces', () => {
  it('records actors, machines, snapshots and run events in order, without secrets', async () => {
    const sink = await recordLookupRun();
    const text = sink.toNdjson();
    expect(text).not.toContain(SECRET);
    expect(text).not.toContain('"runtime"');
    const trace = parseTrace(text);
    expect(trace.header).toEqual({ kind: 'header', format: 'agentchart-trace', version: 1, startedAt: '1970-01-01T00:00:00.000Z', title: 'lookup' });
    expect(trace.entries.map((entry) => entry.seq)).toEqual(trace.entries.map((_, index) => index));
    const kinds = new Set(trace.entries.map((entry) => entry.kind));
    expect([...kinds].sort()).toEqual(['actor', 'event', 'machine', 'run', 'snapshot']);
    const root = trace.entries.find((entry): entry is TraceEntryOf<'actor'> => entry.kind === 'actor' && entry.parentId === undefined);
    expect(root).toMatchObject({ kind: 'actor', name: 'agent', machine: 'agent', label: 'librarian' });
    const states = trace.entries.flatMap((entry) => (entry.kind === 'snapshot' && entry.actorId === root?.actorId ? [String(entry.value)] : []));
    const changes = states.filter((state, index) => state !== states[index - 1]);
    // An ending state (`done`) is left within the macrostep that enters it, so no snapshot rests there.
    expect(changes.slice(0, 2)).toEqual(['idle', 'thinking']);
    expect(changes.slice(-3)).toEqual(['acting', 'thinking', 'ended']);
    const runTypes = trace.entries.flatMap((entry) => (entry.kind === 'run' ? [entry.event.type] : []));
    expect(runTypes[0]).toBe('run.started');
    expect(runTypes.at(-1)).toBe('run.finished');
  });

  it('round-trips: parsing a recorded trace and writing it again gives the same text', async () => {
    const text = (await recordLookupRun()).toNdjson();
    const trace = parseTrace(text);
    expect(toNdjson([trace.header, ...trace.entries])).toBe(text);
    const replayed = await firstValueFrom(replayTrace(trace).pipe(toArray()));
    expect(replayed).toEqual(trace.entries);
  });

  it('reads the version 1 fixture and prints its timeline', () => {
    const trace = parseTrace(fixture('v1-lookup.ndjson'));
    expect(formatTimeline(trace)).toBe(fixture('v1-lookup.timeline.txt'));
  });

  it('rejects a trace from a newer version and says what to do', () => {
    const newer = fixture('v1-lookup.ndjson').replace('"version":1', '"version":2');
    expect(() => parseTrace(newer)).toThrow(TraceFormatError);
    expect(() => parseTrace(newer)).toThrow(/version 2; this agentchart reads versions up to 1\. Update agentchart/);
  });

  it('names the line that is not a trace entry', () => {
    const lines = fixture('v1-lookup.ndjson').split('\n');
    lines[3] = '{"kind":"snapshot","seq":2}';
    try {
      parseTrace(lines.join('\n'));
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(TraceFormatError);
      expect((error as TraceFormatError).code).toBe('TRACE_INVALID');
      expect((error as TraceFormatError).details).toEqual({ line: 4 });
    }
  });
});
