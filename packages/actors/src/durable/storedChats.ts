import {
  ConfigurationError,
  type Message,
  type RunLease,
  RunSnapshotError,
  type RunStore,
  RunStoreError,
  type ToolCallJournalEntry,
} from '@agentchart/core';
import { toErrorInfo } from '@agentchart/core/internal';
import type { SnapshotKey } from '../agent/run/snapshotSignature.js';
import { type CheckpointSeal, checkOwnId, checkSeal } from './checkpointSeal.js';
import { newRunId } from '../ids.js';
import { type ChatInternals, chatInternalsOf } from '../groupChat/chatInternals.js';
import { parseChatSnapshot } from '../groupChat/chatSnapshot.js';
import type { GroupChatRunOptions } from '../groupChat/groupChatTypes.js';
import type { GroupChatRun } from '../groupChat/groupChatRun.js';
import { deferredChatRun } from './deferredChatRun.js';
import type { ChatStoreRuns } from '../groupChat/chatStoreRuns.js';
import type { GroupChat } from '../groupChat/configuredGroupChat.js';
import { loadSpeakerToolSources } from '../groupChat/chatToolSources.js';
import { checkpointStart, withChatInDoubtRequests } from './chatCheckpointStart.js';
import { chatStoreHooks } from './chatStoreHooks.js';
import { nestedChatStore } from './storedNestedChat.js';
import { StoreSession } from './storeSession.js';
import type { StoreOptions } from '../storeOptions.js';
import { verifiedStoredState } from './checkpointChain.js';
import { createOrTakeUnstarted } from './createOrTakeUnstarted.js';
import { DEFAULT_LEASE_MS, defaultOwner } from './leaseDefaults.js';
import { resultOnceStored } from './resultOnceStored.js';
import type { RecordResultOptions } from './recordedResult.js';

/** A group chat in the store under this process's lease. */
export interface DurableChat {
  readonly chat: GroupChatRun;
  /**
   * Calls of the speaking agent's batch a crash left in doubt (started, no
   * result), by their call id in the agent's run (what `waiting().requests`
   * shows). Each one of a tool that is not `idempotent` waits for a person's
   * decision, as in a run (see `DurableRun.inDoubt`).
   */
  readonly inDoubt: readonly ToolCallJournalEntry[];
  /**
   * Records the result of an in-doubt call by hand: approving it then answers
   * the model with it; the tool does not run. The journal keeps results, not
   * the shared-state writes of a call that was cut off: pass them as
   * `state` and they land when the result answers the call (stored with it,
   * so a crash before the approval keeps them too); without it, none does.
   *
   * @example
   * await durable.recordResult('call_1', 'paid Bob 10 (checked by hand)', { state: { paid: 'Bob' } });
   * durable.run.approve('call_1');
   */
  recordResult(callId: string, result: unknown, options?: RecordResultOptions): Promise<void>;
  /** Resolves once the chat ended, no tool of it still executes, and its end was written (or the lease was lost). */
  readonly settled: Promise<void>;
}

/** What a chat kept in a store takes: the run options and where it is kept. */
export type ChatStoreOptions = GroupChatRunOptions & StoreOptions;

/** The journal id of a call of a chat turn's run: the chat's journal holds every turn's calls. */
const chatCallId = (runId: string, callId: string) => `${runId}/${callId}`;

/**
 * Starts a group chat kept in the store: created under a lease of `owner`
 * (`RUN_ALREADY_EXISTS` when the chat id is taken), checkpointed after each
 * turn and speaker decision, each step of the speaking agent (its run's
 * state), each wait (a tool approval, a person's turn, a manual choice),
 * each step inside a nested chat's turn (its own checkpoints, at any depth)
 * or a custom participant's (its `checkpoint()`), and the end; every
 * agent's tool calls — nested chats' agents too — go through the chat's
 * journal under the chat's lease. `chat.run(task, { store })` does the same
 * and returns the chat at once. A group chat written by hand as a
 * participant is refused (`ConfigurationError`).
 *
 * @example
 * const { chat: run, settled } = await startChatInStore(chat, 'Plan the release.', { store, chatId: 'release-7' });
 * await run.result;
 */
export async function startChatInStore(chat: GroupChat, input: string | readonly Message[], options: ChatStoreOptions): Promise<DurableChat> {
  return (await prepareStoredChat(chatInternalsOf(chat), input, options))();
}

async function prepareStoredChat(chat: ChatInternals, input: string | readonly Message[], options: ChatStoreOptions): Promise<() => DurableChat> {
  const internals = storableChat(chat);
  const { store, owner = defaultOwner(), leaseMs = DEFAULT_LEASE_MS, ...runOptions } = options;
  const start = internals.newStart(input, { ...runOptions, store });
  const lease = await createOrTakeUnstarted(store, { runId: start.chatId, kind: 'chat', name: internals.name, owner, leaseMs });
  return () => {
    const session = chatSession(store, lease, leaseMs, internals);
    const run = internals.start({ ...start, newRunId, checkpoints: session.checkpoints }, runOptions);
    session.checkpointStart();
    return session.attach(run, []);
  };
}

/** `chat.run(task, { store })`: the chat at once, started once the store created it. */
function storedChatRun(chat: ChatInternals, input: string | readonly Message[], options: ChatStoreOptions): GroupChatRun {
  const chatId = options.chatId ?? `chat_${newRunId().slice(4)}`;
  return deferredChatRun(
    chatId,
    async (signal) => {
      const start = await prepareStoredChat(chat, input, { ...options, chatId, signal });
      return () => start().chat;
    },
    options.signal,
    options.sharedState,
  );
}

/** `chat.resume(chatId, { store })`: the chat at once, going on once it was loaded under this process's lease. */
function storedChatResume(
  chat: ChatInternals,
  chatId: string,
  options: Pick<GroupChatRunOptions, 'signal' | 'inspect'> & StoreOptions,
): GroupChatRun {
  return deferredChatRun(
    chatId,
    async (signal) => {
      const start = await prepareChatResume(chat, chatId, { ...options, signal });
      return () => start().chat;
    },
    options.signal,
  );
}

/**
 * Resumes a stored chat from its last checkpoint under a lease of `owner`
 * (`RunOwnedElsewhereError` while another owner's lease holds): a chat
 * between turns decides its next speaker; a decided turn begins; a turn
 * under way goes on from its agent's last step, or inside the nested chat or
 * custom participant's turn from its checkpoint (a model call in flight is
 * made again; a batch goes through the chat's journal: recorded results are
 * reused, in-doubt calls of `idempotent` tools run again with the same key,
 * other in-doubt calls wait for a person); a wait waits again.
 *
 * @example
 * const { chat: run, inDoubt } = await resumeChatFromStore(chat, 'release-7', { store, owner: 'worker-2' });
 * await run.result;
 */
export async function resumeChatFromStore(
  chat: GroupChat,
  chatId: string,
  options: Pick<GroupChatRunOptions, 'signal' | 'inspect'> & StoreOptions,
): Promise<DurableChat> {
  return heldChatResume(chat, chatId, options, nextMacrotask());
}

/**
 * `resumeChatFromStore` whose chat starts once `startAfter` resolves (and not
 * before its promise has resolved): the caller has the chat before its first event.
 * @internal
 */
export async function heldChatResume(
  chat: GroupChat,
  chatId: string,
  options: Pick<GroupChatRunOptions, 'signal' | 'inspect'> & StoreOptions,
  startAfter: Promise<void>,
): Promise<DurableChat> {
  const start = await prepareChatResume(chatInternalsOf(chat), chatId, options, startAfter);
  try {
    return start();
  } catch (error) {
    await start.released;
    throw error;
  }
}

async function prepareChatResume(
  chat: ChatInternals,
  chatId: string,
  options: Pick<GroupChatRunOptions, 'signal' | 'inspect'> & StoreOptions,
  startAfter?: Promise<void>,
): Promise<(() => DurableChat) & { released?: Promise<void> }> {
  const internals = storableChat(chat);
  const { store, owner = defaultOwner(), leaseMs = DEFAULT_LEASE_MS, ...runOptions } = options;
  const lease = await store.acquireLease(chatId, owner, leaseMs);
  try {
    const stored = await store.loadRun(chatId);
    if (stored === undefined) throw new RunStoreError('RUN_NOT_FOUND', `The store has no chat "${chatId}".`, { runId: chatId });
    if (stored.kind !== 'chat' || stored.name !== internals.name) {
      throw new RunSnapshotError(
        'RUN_SNAPSHOT_INVALID',
        `Stored ${stored.kind} "${chatId}" belongs to "${stored.name}"; resume it with that ${stored.kind === 'chat' ? 'chat' : 'agent'}, not the chat "${internals.name}".`,
        { runId: chatId },
      );
    }
    if (stored.status === 'finished' || stored.state === undefined) {
      throw new RunSnapshotError(
        'RUN_SNAPSHOT_INVALID',
        stored.status === 'finished'
          ? `Stored chat "${chatId}" is finished: there is nothing to resume.`
          : `Stored chat "${chatId}" has no checkpoint: its process stopped right after creating it, before anything ran. Start it again.`,
        { runId: chatId, status: stored.status },
      );
    }
    const journal = await store.listCalls(chatId);
    const state = verifiedStoredState(stored, internals.snapshotKey, 'stored chat');
    const checkpoint = parseChatSnapshot(ownChatCheckpoint(state, chatId, journal, internals.snapshotKey), internals.runtime.participants, {
      checkpoint: true,
    });
    // The agent whose turn it stands in restores its run against its sources' tools: loaded first.
    await loadSpeakerToolSources(internals.runtime, 'speaker' in checkpoint.waiting ? checkpoint.waiting.speaker : undefined, options.signal);
    const { waiting, inDoubt, runId } = withChatInDoubtRequests(checkpoint.waiting, journal, internals.runtime);
    const start: (() => DurableChat) & { released?: Promise<void> } = () => {
      const session = chatSession(store, lease, leaseMs, internals, journal);
      let run: GroupChatRun;
      try {
        run = internals.start(
          {
            ...checkpointStart(checkpoint, waiting, internals.runtime, session.checkpoints),
            newRunId,
            checkpoints: session.checkpoints,
            ...(startAfter === undefined ? {} : { startAfter }),
          },
          runOptions,
        );
      } catch (error) {
        start.released = store.releaseLease(lease).catch(() => {});
        throw error;
      }
      return session.attach(run, inDoubt, runId);
    };
    return start;
  } catch (error) {
    await store.releaseLease(lease).catch(() => {});
    throw error;
  }
}

/**
 * The checkpoint stored in chat `chatId`'s row (its signature or its chain's
 * already verified), once it is shown to belong
 * there (see `ownCheckpoint` in storedRuns.ts): without its signature and seal.
 */
function ownChatCheckpoint(state: unknown, chatId: string, journal: readonly ToolCallJournalEntry[], snapshotKey: SnapshotKey | undefined): unknown {
  const where = { row: chatId, kind: 'chat' as const };
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return state; // parseChatSnapshot says what is wrong with it
  const { signature: _signature, ...signed } = state as Record<string, unknown>;
  const checkpoint = snapshotKey === undefined ? signed : checkSeal(signed, where, journal);
  checkOwnId(checkpoint, 'chatId', where, snapshotKey !== undefined);
  return checkpoint;
}

/**
 * A chat that can be kept in a store: made by `createGroupChat`, every
 * participant of it storable (agents, people, custom participants, nested
 * chats made by `createGroupChat`, at any depth; not a group chat written by hand).
 */
function storableChat(internals: ChatInternals): ChatInternals {
  const refused = [...internals.runtime.members.values()].flatMap((member) => {
    const storable = member.kind === 'chat' || member.kind === 'custom' ? member.delegate.storable : true;
    return storable === true ? [] : [`"${member.name}": ${storable.reason}`];
  });
  if (refused.length > 0) {
    throw new ConfigurationError(
      `Chat "${internals.name}" cannot be kept in a store: ${refused.join('; ')}. Run it without a store (and persist its waits with run.snapshot()), ` +
        'or make the nested chat with createGroupChat(...).',
      { refused },
    );
  }
  return internals;
}

/**
 * What a chat kept in the store runs with: its writer (chat checkpoints and
 * journal entries in order, under the chat's lease), the journal middleware
 * every speaking agent gets, the checkpoint hooks, and once attached the
 * lease keeper and the end. A lost lease (or a failed write) aborts the chat.
 */
function chatSession(store: RunStore, lease: RunLease, leaseMs: number, internals: ChatInternals, journaled: readonly ToolCallJournalEntry[] = []) {
  let chat: GroupChatRun | undefined;
  const key: SnapshotKey | undefined = internals.snapshotKey;
  const session = new StoreSession(store, lease, leaseMs, () => chat?.abort(), chatCallId, journaled, key);
  const { writer, journal } = session;
  const { checkpoints, started } = chatStoreHooks(
    (status, state) => {
      // Unsigned and as built (the writer's chain signs it, and finds its delta by reference).
      writer.checkpoint(status, (entries) => {
        const checkpoint = state();
        if (key === undefined || entries === undefined) return checkpoint;
        const seal: CheckpointSeal = { row: checkpoint.chatId, kind: 'chat', journal: entries };
        return { ...checkpoint, seal };
      });
    },
    journal,
    () => writer.idle(),
  );

  const attach = (attached: GroupChatRun, inDoubt: readonly ToolCallJournalEntry[], runId?: string): DurableChat => {
    chat = attached;
    if (session.failure !== undefined) attached.abort();
    session.keepLease();
    const { settled, stored } = session.settle(attached.result, (result) => ({
      format: 'agentchart.chat.finished',
      reason: result.reason,
      lastSpeaker: result.lastSpeaker ?? null,
    }));
    return {
      chat: resultOnceStored(attached, stored),
      inDoubt,
      recordResult: (callId, result, options) =>
        session.recordResult(inDoubt, callId, runId === undefined ? undefined : chatCallId(runId, callId), result, options),
      settled,
    };
  };
  return { checkpoints, checkpointStart: started, attach, failed: () => (session.failure === undefined ? undefined : toErrorInfo(session.failure)) };
}

/** Resolves after the current macrotask: after every promise continuation queued by then (the caller's `await`). */
export function nextMacrotask(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}

/**
 * How a chat's runs with `{ store }` are kept in the store (handed to every
 * chat by the `createGroupChat` facade): `chat.run(task, { store })`,
 * `chat.resume(chatId, { store })`, and its turns inside an outer chat kept
 * in a store.
 */
export const chatStoreRuns: ChatStoreRuns = { run: storedChatRun, resume: storedChatResume, nested: nestedChatStore };
