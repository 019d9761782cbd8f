import { createHash } from 'node:crypto';
import type { ChatEvent, GroupChat, GroupChatRun, TerminationReason } from '@agentchart/actors';
import { keepLease } from '@agentchart/actors/internal';
import { type RunLease, type RunStore, RunStoreError, type ToolCallJournalEntry } from '@agentchart/core';
import { DBOS } from '@dbos-inc/dbos-sdk';
import type { ControlMessage } from './controlMessage.js';
import { DbosChatError } from './errors.js';
import { CONTROL_TOPIC, EVENTS_STREAM, WAITING_EVENT } from './names.js';
import type { DurableWaiting } from './durableWaiting.js';
import { numberedWaits, type UnnumberedWaiting } from './numberedWaits.js';

export type { DurableWaiting } from './durableWaiting.js';
import { type ChatWorkflowScope, type InDoubtDecision, workflowScope } from './workflowScope.js';

/** What a chat workflow is started with (JSON: it is stored by DBOS). */
export interface ChatWorkflowInput {
  /** The chat's name in the worker module's `chats`. */
  chat: string;
  /** The task. */
  task: string;
}

/** What a chat workflow returns (its DBOS result). */
export interface DurableChatResult {
  chatId: string;
  reason: TerminationReason;
  rounds: number;
  lastSpeaker: string | undefined;
  /** The text of the chat's last message. */
  lastMessage: string | undefined;
  /** The DBOS executor that finished the chat. */
  executor: string;
}

/** An event of the chat's stream: the chat's own events, and what the workflow adds (refused commands, in-doubt calls). */
export type DurableChatEvent =
  | ChatEvent
  | { type: 'control.refused'; chatId: string; message: unknown; error: string }
  | { type: 'call.in-doubt'; chatId: string; id: string; toolName: string }
  | { type: 'call.in-doubt.decided'; chatId: string; id: string; decision: InDoubtDecision['kind'] };

/** One batch of the events stream: events `from` … `from + events.length - 1` of the chat. */
export interface EventBatch {
  from: number;
  events: DurableChatEvent[];
}

/** What the workflow needs from its worker. */
export interface ChatWorkflowEnvironment {
  chats: ReadonlyMap<string, GroupChat>;
  store: RunStore;
  leaseMs: number;
}

/**
 * The body of the chat workflow: runs the chat under its lease in the store
 * (owner `workflow:<chatId>`: a recovered execution of the same workflow
 * takes it over, fencing an old one that still runs), with deterministic ids
 * and seed (from the chat id), model calls as steps (`durableModel`), tool
 * calls through the journal (`durableToolJournal`), every wait for a person
 * as `DBOS.recv`, and its events written to a DBOS stream once per turn
 * (beside the next model step), before each wait and at the end. On the
 * chat's path: the tool call's intent before the tool runs; its result,
 * the events and the chat's end are written beside the next step.
 */
export async function runChatWorkflow(env: ChatWorkflowEnvironment, input: ChatWorkflowInput): Promise<DurableChatResult> {
  const chatId = DBOS.workflowID;
  if (chatId === undefined) throw new Error('runChatWorkflow runs inside a DBOS workflow only.');
  const chat = env.chats.get(input.chat);
  if (chat === undefined) {
    throw new DbosChatError(
      'UNKNOWN_CHAT',
      `This worker's module exports no chat "${input.chat}" (it has: ${[...env.chats.keys()].join(', ')}). Enqueue one of these, or start workers with a module that exports it.`,
      { chat: input.chat },
    );
  }
  const taken = await takeChatLease(env, chatId, input.chat);
  if (taken.kind === 'finished') return taken.summary;
  const lease = taken.lease;
  let run: GroupChatRun | undefined;
  const keeper = keepLease(env.store, lease, env.leaseMs, () => run?.abort());
  const events = eventLog();
  const writes = writesBeside(() => run?.abort());
  const waits = serialWaits();
  const numbered = numberedWaits();
  const scope: ChatWorkflowScope = {
    chatId,
    store: env.store,
    lease: keeper.current,
    onLeaseLost: () => run?.abort(),
    beforeStep: () => {
      const batch = events.takeEndedTurns();
      return () => writes.settle(batch === undefined ? undefined : DBOS.writeStream(EVENTS_STREAM, batch));
    },
    writeFailure: writes.failure,
    writeLater: writes.later,
    decideInDoubt: (entry, toolArguments) => waits.one(async () => decideInDoubt(entry, toolArguments, events, numbered, writes)),
  };
  try {
    const result = await workflowScope.run(scope, async () => {
      run = chat.run(input.task, { chatId, randomSeed: seedOf(chatId) });
      const started = run;
      const wakes = wakeOnWait(started);
      started.events$.subscribe({
        next: (event) => {
          events.add(event);
          wakes.check();
        },
        error: () => undefined,
      });
      const finished = started.result.then(() => 'finished' as const);
      for (;;) {
        if ((await Promise.race([finished, wakes.next()])) === 'finished') break;
        await waits.one(() => answerWaits(started, events, numbered, writes));
      }
      return started.result;
    });
    const summary: DurableChatResult = {
      chatId,
      reason: result.reason,
      rounds: result.rounds,
      lastSpeaker: result.lastSpeaker,
      lastMessage: lastText(result.messages),
      executor: DBOS.executorID,
    };
    // The last events, the journal's last results and the chat's end, side by side. The lease is
    // not given back: a finished chat is never taken again, and the lease lapses by itself.
    // Readers of the stream stop once the workflow has ended (no closing write needed).
    await Promise.all([
      events.flush(),
      writes.done(),
      env.store.saveState(keeper.current(), { status: 'finished', state: { format: 'agentchart.chat.finished', ...summary } }),
    ]);
    return summary;
  } finally {
    keeper.stop();
  }
}

function isFinishedState(state: unknown): state is DurableChatResult & { format: 'agentchart.chat.finished' } {
  return typeof state === 'object' && state !== null && (state as { format?: unknown }).format === 'agentchart.chat.finished';
}

/**
 * Takes the chat's lease: creates the chat's row (its first execution), or
 * takes the lease again with a new fencing token (a recovered execution),
 * unless the chat already ended in the store (a worker died after storing
 * the end, before DBOS recorded the result): then its summary.
 */
async function takeChatLease(
  env: ChatWorkflowEnvironment,
  chatId: string,
  name: string,
): Promise<{ kind: 'lease'; lease: RunLease } | { kind: 'finished'; summary: DurableChatResult }> {
  const owner = `workflow:${chatId}`;
  try {
    return { kind: 'lease', lease: await env.store.createRun({ runId: chatId, kind: 'chat', name, owner, leaseMs: env.leaseMs }) };
  } catch (error) {
    if (!(error instanceof RunStoreError && error.code === 'RUN_ALREADY_EXISTS')) throw error;
  }
  const stored = await env.store.loadRun(chatId);
  if (stored?.status === 'finished' && isFinishedState(stored.state)) {
    const { format: _format, ...summary } = stored.state;
    return { kind: 'finished', summary };
  }
  return { kind: 'lease', lease: await env.store.acquireLease(chatId, owner, env.leaseMs) };
}

/**
 * While the chat waits for a person: say what it waits for (numbered), receive
 * commands and apply those that answer this wait, until it goes on.
 */
async function answerWaits(run: GroupChatRun, events: EventLog, numbered: NumberedWaits, writes: WritesBeside): Promise<void> {
  for (let now = run.waiting(); now !== undefined; now = run.waiting()) {
    const waiting = numbered.number(now);
    const message = await receive(waiting, events, writes);
    const verdict = numbered.check(waiting, message);
    if (verdict.kind === 'refuse') events.add({ type: 'control.refused', chatId: run.chatId, message, error: verdict.error });
    if (verdict.kind !== 'apply') continue;
    try {
      applyControl(run, verdict.message);
    } catch (error) {
      events.add({ type: 'control.refused', chatId: run.chatId, message, error: error instanceof Error ? error.message : String(error) });
      continue;
    }
    if (numbered.applied(verdict.message)) await DBOS.setEvent(WAITING_EVENT, null);
    await settled();
  }
}

function applyControl(run: GroupChatRun, message: ControlMessage): void {
  if (message.type === 'approve') run.approve(message.id);
  else if (message.type === 'reject') run.reject(message.id, message.reason);
  else if (message.type === 'say') run.say(message.text, message.as === undefined ? undefined : { as: message.as });
  else if (message.type === 'select') run.select(message.speaker);
  else throw new Error(`"record" answers a tool call in doubt; the chat waits for ${JSON.stringify(run.waiting()?.kind)}.`);
}

async function decideInDoubt(
  entry: ToolCallJournalEntry,
  toolArguments: unknown,
  events: EventLog,
  numbered: NumberedWaits,
  writes: WritesBeside,
): Promise<InDoubtDecision> {
  const id = entry.callId;
  events.add({ type: 'call.in-doubt', chatId: entry.runId, id, toolName: entry.toolName });
  const inDoubt: UnnumberedWaiting = { kind: 'in-doubt', id, toolName: entry.toolName, arguments: toolArguments };
  for (;;) {
    const waiting = numbered.number(inDoubt);
    const message = await receive(waiting, events, writes);
    const verdict = numbered.check(waiting, message);
    if (verdict.kind === 'refuse') events.add({ type: 'control.refused', chatId: entry.runId, message, error: verdict.error });
    if (verdict.kind !== 'apply') continue;
    const command = verdict.message;
    const decision: InDoubtDecision =
      command.type === 'approve'
        ? { kind: 'retry' }
        : command.type === 'record'
          ? { kind: 'record', result: command.result }
          : { kind: 'skip', reason: command.type === 'reject' ? command.reason : undefined };
    numbered.applied(command);
    await DBOS.setEvent(WAITING_EVENT, null);
    events.add({ type: 'call.in-doubt.decided', chatId: entry.runId, id, decision: decision.kind });
    return decision;
  }
}

type EventLog = ReturnType<typeof eventLog>;
type NumberedWaits = ReturnType<typeof numberedWaits>;
type WritesBeside = ReturnType<typeof writesBeside>;

/** Publishes the wait (`agentchart.waiting`, with its number), then waits durably for the next command. */
async function receive(waiting: DurableWaiting, events: EventLog, writes: WritesBeside): Promise<unknown> {
  // A wait may last for days and end on another worker: everything so far is written first.
  await Promise.all([events.flush(), writes.done()]);
  await DBOS.setEvent(WAITING_EVENT, waiting);
  let message: unknown = null;
  while (message === null) message = await DBOS.recv<unknown>(CONTROL_TOPIC, { timeoutSeconds: 24 * 3600 });
  return message;
}

/**
 * The chat's events, buffered and written to its DBOS stream in numbered
 * batches: once per turn (beside the next model step, by `takeEndedTurns`),
 * and by `flush` before each wait and at the end (so a reader sees a turn
 * once it ended, and everything before a wait). A batch may be written twice
 * (a step run again after a crash): readers drop what they already had.
 */
function eventLog() {
  let buffer: DurableChatEvent[] = [];
  let written = 0;
  let turnEnded = false;
  const take = (): EventBatch | undefined => {
    if (buffer.length === 0) return undefined;
    const batch: EventBatch = { from: written, events: buffer };
    written += buffer.length;
    buffer = [];
    turnEnded = false;
    return batch;
  };
  return {
    add(event: DurableChatEvent) {
      buffer.push(event);
      if (event.type === 'turn.finished') turnEnded = true;
    },
    /** The events so far when a turn ended since the last batch (the caller writes them). */
    takeEndedTurns(): EventBatch | undefined {
      return turnEnded ? take() : undefined;
    },
    /** Writes the events so far from the workflow (a DBOS operation: call it where every replay does). */
    async flush() {
      const batch = take();
      if (batch !== undefined) await DBOS.writeStream(EVENTS_STREAM, batch);
    },
  };
}

/**
 * The writes that run beside the chat instead of in front of it (the
 * journal's results, the events written in a step). A failed one stops the
 * chat (`onFailure`) and fails the next step, wait or end that waits for it.
 */
function writesBeside(onFailure: () => void) {
  let pending: Promise<unknown>[] = [];
  let failed: { error: unknown } | undefined;
  const fail = (error: unknown) => {
    if (failed !== undefined) return;
    failed = { error };
    onFailure();
  };
  return {
    later(write: Promise<unknown>) {
      pending.push(write.catch(fail));
    },
    failure: () => failed?.error,
    /** Waits for the pending writes and `also`; never rejects (a failure is kept). */
    async settle(also: Promise<unknown> | undefined): Promise<void> {
      const now = pending;
      pending = [];
      await Promise.all([...now, also?.catch(fail)]);
    },
    /** Waits for the pending writes; rejects with the first failure. */
    async done(): Promise<void> {
      await this.settle(undefined);
      if (failed !== undefined) throw failed.error;
    },
  };
}

/** Durable waits one at a time (a chat's wait and an in-doubt call never receive at once). */
function serialWaits() {
  let tail: Promise<unknown> = Promise.resolve();
  return {
    one<T>(wait: () => Promise<T>): Promise<T> {
      const next = tail.then(wait);
      tail = next.catch(() => undefined);
      return next;
    },
  };
}

/** Resolves `next()` once the chat waits for a person (checked after each event, once the chat has settled). */
function wakeOnWait(run: GroupChatRun) {
  let wake: () => void = () => undefined;
  let pending = new Promise<void>((resolve) => (wake = resolve));
  let scheduled = false;
  return {
    check() {
      if (scheduled) return;
      scheduled = true;
      setImmediate(() => {
        scheduled = false;
        if (run.waiting() !== undefined) wake();
      });
    },
    next(): Promise<'wait'> {
      const current = pending;
      return current.then(() => {
        if (pending === current) pending = new Promise<void>((resolve) => (wake = resolve));
        return 'wait' as const;
      });
    },
  };
}

function settled(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/** The random selector's seed, from the chat id (the same on every replay). */
export function seedOf(chatId: string): number {
  return createHash('sha256').update(chatId).digest().readInt32LE(0);
}

function lastText(messages: readonly { content?: unknown }[]): string | undefined {
  const content = messages.at(-1)?.content;
  return typeof content === 'string' ? content : undefined;
}
