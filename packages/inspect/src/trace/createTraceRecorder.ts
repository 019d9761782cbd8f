import type { Observable, Subscription } from 'rxjs';
import type { ActorRefLike, AnyStateMachine, InspectionEvent } from 'xstate';
import { actorParents } from '../inspection/actorParents.js';
import { parentOrderedQueue } from '../inspection/parentOrderedQueue.js';
import type { SanitizeOptions } from '../sanitize/sanitizeValue.js';
import { type UntimedEntry, createMachineKeys, inspectionEntries } from './inspectionEntries.js';
import { type AnyRunEvent, runEntries } from './runEntries.js';
import { TraceEntrySchema, traceHeader } from './traceFormat.js';
import type { TraceSink } from './traceSinks.js';

/** What `createTraceRecorder` takes. */
export interface TraceRecorderOptions {
  /** Where the lines go (several sinks get the same lines). */
  sink: TraceSink | readonly TraceSink[];
  /** Shown by `agentchart trace` and the live view. */
  title?: string;
  /** How contexts, events and results are trimmed before they are written. */
  sanitize?: SanitizeOptions;
  /** The clock in milliseconds (default `performance.now`); entries carry time since the start. */
  now?: () => number;
  /** The wall-clock start written in the header (default: now). */
  startedAt?: Date;
}

/** Records inspection events and run events into a trace. */
export interface TraceRecorder {
  /** Pass as `inspect` to `createAgent`, `agent.run` or a chat. */
  readonly inspect: (event: InspectionEvent) => void;
  /**
   * Records a run's (or a group chat's) `events$` until it completes.
   * `machines` are drawn beside it (a chat's speaker transitions:
   * `{ speakers: chat.transitions }`, which `speaker.selected` moves).
   */
  recordRun(run: RecordableRun): Subscription;
  /** Stops recording and closes the sinks. */
  close(): Promise<void>;
}

/**
 * Records a run as a versioned NDJSON trace: every actor, event and state
 * change (sanitised) and every run event, in the order they happen.
 *
 * @example
 * const recorder = createTraceRecorder({ sink: ndjsonFileSink('run.trace.ndjson'), title: 'travel' });
 * const run = agent.run('Plan my trip', { inspect: recorder.inspect });
 * recorder.recordRun(run);
 * await run.result;
 * await recorder.close();
 */
export function createTraceRecorder(options: TraceRecorderOptions): TraceRecorder {
  const sinks: readonly TraceSink[] = Array.isArray(options.sink) ? options.sink : [options.sink as TraceSink];
  const now = options.now ?? (() => performance.now());
  const start = now();
  const machineKeys = createMachineKeys();
  const toEntries = inspectionEntries(options.sanitize, machineKeys);
  const parents = actorParents();
  // An actor's entry names its parent, which XState tells when the actor starts: entries are made and timed as
  // things happen, and written in that order once the parents they name are known.
  const inOrder = parentOrderedQueue(parents);
  const subscriptions: Subscription[] = [];
  const recordedChats = new Set<string>();
  let seq = 0;
  let runCount = 0;
  let closed = false;

  const writeAll = (line: Parameters<TraceSink['write']>[0]) => {
    for (const sink of sinks) sink.write(line);
  };
  const elapsed = () => Math.max(0, Math.round((now() - start) * 1000) / 1000);
  const record = (entry: UntimedEntry, t: number) => {
    if (closed) return;
    // Parsing checks the entry and puts its keys in the format's order, so a trace reads back to the same text.
    writeAll(TraceEntrySchema.parse({ ...entry, seq: seq++, t }));
  };
  const recordInOrder = (entries: UntimedEntry[], actor?: ActorRefLike) => {
    if (entries.length === 0) return;
    const times = entries.map(elapsed);
    inOrder.push(actor === undefined ? [] : [actor], () => {
      entries.forEach((entry, index) => {
        const parent = actor === undefined ? undefined : parents.parentOf(actor);
        record(entry.kind === 'actor' && parent ? { ...entry, parentId: toEntries.idOf(parent) } : entry, times[index] as number);
      });
    });
  };

  writeAll(traceHeader(options.startedAt ?? new Date(), options.title));
  return {
    inspect: (event) => {
      parents.observe(event);
      recordInOrder(toEntries(event), event.type === '@xstate.actor' ? event.actorRef : undefined);
    },
    recordRun: (run) => {
      if (run.chatId !== undefined) recordedChats.add(run.chatId);
      const fromRun = runEntries(run.chatId ?? run.runId ?? `run${++runCount}`, run, options.sanitize, machineKeys, recordedChats);
      recordInOrder(fromRun.start());
      const subscription = run.events$.subscribe({
        next: (event) => recordInOrder(fromRun.event(event)),
        error: () => undefined,
      });
      subscriptions.push(subscription);
      return subscription;
    },
    close: async () => {
      if (closed) return;
      inOrder.flush();
      closed = true;
      for (const subscription of subscriptions) subscription.unsubscribe();
      await Promise.all(sinks.map((sink) => sink.close?.()));
    },
  };
}

/** What `recordRun` takes: an agent run, a group-chat run, or any handle with such `events$`. */
export interface RecordableRun {
  readonly events$: Observable<AnyRunEvent>;
  readonly runId?: string;
  readonly chatId?: string;
  /** Shown for its machines (a chat's name); default its id. */
  readonly name?: string;
  /** Machines that are not actors of the run but belong to it (a chat's `speakers`). */
  readonly machines?: Readonly<Record<string, AnyStateMachine>>;
}
