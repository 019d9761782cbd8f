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
 * as `DBOS.recv`, and its events written to a DBOS stream at each step.
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
  const stored = await env.store.loadRun(chatId);
  if (stored?.status === 'finished' && isFinishedState(stored.state)) {
    // A worker died after the chat's end was stored but before DBOS recorded the workflow's result: it ended once, say how.
    const { format: _format, ...summary } = stored.state;
    return summary;
  }
  const lease = await takeChatLease(env, chatId, input.chat);
  let run: GroupChatRun | undefined;
  const keeper = keepLease(env.store, lease, env.leaseMs, () => run?.abort());
  const events = eventLog(chatId);
  const waits = serialWaits();
  const numbered = numberedWaits();
  const scope: ChatWorkflowScope = {
    chatId,
    store: env.store,
    lease: keeper.current,
    onLeaseLost: () => run?.abort(),
    beforeStep: events.flush,
    decideInDoubt: (entry, toolArguments) => waits.one(async () => decideInDoubt(entry, toolArguments, events, numbered)),
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
        await waits.one(() => answerWaits(started, events, numbered));
      }
      return started.result;
    });
    await events.flush();
    await DBOS.closeStream(EVENTS_STREAM);
    const summary: DurableChatResult = {
      chatId,
      reason: result.reason,
      rounds: result.rounds,
      lastSpeaker: result.lastSpeaker,
      lastMessage: lastText(result.messages),
      executor: DBOS.executorID,
    };
    await env.store.saveState(keeper.current(), { status: 'finished', state: { format: 'agentchart.chat.finished', ...summary } });
    await env.store.releaseLease(keeper.current());
    return summary;
  } finally {
    keeper.stop();
  }
}

function isFinishedState(state: unknown): state is DurableChatResult & { format: 'agentchart.chat.finished' } {
  return typeof state === 'object' && state !== null && (state as { format?: unknown }).format === 'agentchart.chat.finished';
}

async function takeChatLease(env: ChatWorkflowEnvironment, chatId: string, name: string): Promise<RunLease> {
  const owner = `workflow:${chatId}`;
  try {
    return await env.store.createRun({ runId: chatId, kind: 'chat', name, owner, leaseMs: env.leaseMs });
  } catch (error) {
    if (!(error instanceof RunStoreError && error.code === 'RUN_ALREADY_EXISTS')) throw error;
    return env.store.acquireLease(chatId, owner, env.leaseMs); // a recovered execution: a new fencing token
  }
}

/**
 * While the chat waits for a person: say what it waits for (numbered), receive
 * commands and apply those that answer this wait, until it goes on.
 */
async function answerWaits(run: GroupChatRun, events: EventLog, numbered: NumberedWaits): Promise<void> {
  for (let now = run.waiting(); now !== undefined; now = run.waiting()) {
    const waiting = numbered.number(now);
    const message = await receive(waiting, events);
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
): Promise<InDoubtDecision> {
  const id = entry.callId;
  events.add({ type: 'call.in-doubt', chatId: entry.runId, id, toolName: entry.toolName });
  const inDoubt: UnnumberedWaiting = { kind: 'in-doubt', id, toolName: entry.toolName, arguments: toolArguments };
  for (;;) {
    const waiting = numbered.number(inDoubt);
    const message = await receive(waiting, events);
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

/** Publishes the wait (`agentchart.waiting`, with its number), then waits durably for the next command. */
async function receive(waiting: DurableWaiting, events: EventLog): Promise<unknown> {
  await events.flush();
  await DBOS.setEvent(WAITING_EVENT, waiting);
  let message: unknown = null;
  while (message === null) message = await DBOS.recv<unknown>(CONTROL_TOPIC, { timeoutSeconds: 24 * 3600 });
  return message;
}

/** The chat's events, buffered and written to its DBOS stream in one batch at each step (so their order in the workflow is fixed). */
function eventLog(_chatId: string) {
  let buffer: DurableChatEvent[] = [];
  let written = 0;
  return {
    add(event: DurableChatEvent) {
      buffer.push(event);
    },
    async flush() {
      if (buffer.length === 0) return;
      const batch: EventBatch = { from: written, events: buffer };
      written += buffer.length;
      buffer = [];
      await DBOS.writeStream(EVENTS_STREAM, batch);
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
