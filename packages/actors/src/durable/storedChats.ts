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
import { hostname } from 'node:os';
import { type AgentRuntime, agentRuntime } from '../agent/machine/agentRuntime.js';
import { pendingRequests } from '../agent/machine/approvals.js';
import type { PersistedRun } from '../agent/run/runSnapshot.js';
import { type SnapshotKey, signSnapshot, verifySnapshot } from '../agent/run/snapshotSignature.js';
import { newRunId } from '../ids.js';
import type { ChatCheckpoints } from '../groupChat/chatCheckpoints.js';
import { type ChatInternals, chatInternalsOf } from '../groupChat/chatInternals.js';
import type { ChatStart } from '../groupChat/chatRun.js';
import { type ChatStoreCheckpoint, type StoredChatCheckpoint, parseChatSnapshot } from '../groupChat/chatSnapshot.js';
import type { GroupChatRun, GroupChatRunOptions, GroupChatSnapshot } from '../groupChat/groupChatTypes.js';
import { type ManagerContext, stateValues } from '../groupChat/managerContext.js';
import { restoreSpeakerRun } from '../groupChat/speakerResume.js';
import { deferredChatRun } from './deferredChatRun.js';
import type { GroupChat } from '../groupChat/createGroupChat.js';
import { checkpointHooks, checkpointSnapshot, freezeCheckpoint } from './runCheckpointer.js';
import { StoreSession } from './storeSession.js';
import { DEFAULT_LEASE_MS, type StoreOptions, createOrTakeUnstarted, withInDoubtRequests } from './storedRuns.js';

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
  /** Records the result of an in-doubt call by hand: approving it then answers the model with it; the tool does not run. */
  recordResult(callId: string, result: unknown): Promise<void>;
  /** Resolves once the chat ended, no tool of it still executes, and its end was written (or the lease was lost). */
  readonly settled: Promise<void>;
}

/** What a chat kept in a store takes: the run options and where it is kept. */
export type ChatStoreOptions = GroupChatRunOptions & StoreOptions;

const defaultOwner = () => `${hostname()}:${process.pid}`;

/** The journal id of a call of a chat turn's run: the chat's journal holds every turn's calls. */
const chatCallId = (runId: string, callId: string) => `${runId}/${callId}`;

/**
 * Starts a group chat kept in the store: created under a lease of `owner`
 * (`RUN_ALREADY_EXISTS` when the chat id is taken), checkpointed after each
 * turn and speaker decision, each step of the speaking agent (its run's
 * state), each wait (a tool approval, a person's turn, a manual choice) and
 * the end; every agent's tool calls go through the chat's journal under the
 * chat's lease. `chat.run(task, { store })` does the same and returns the
 * chat at once. Nested chats as participants are not kept in a store yet.
 *
 * @example
 * const { chat: run, settled } = await startChatInStore(chat, 'Plan the release.', { store, chatId: 'release-7' });
 * await run.result;
 */
export async function startChatInStore(chat: GroupChat, input: string | readonly Message[], options: ChatStoreOptions): Promise<DurableChat> {
  return (await prepareStoredChat(chat, input, options))();
}

async function prepareStoredChat(chat: object, input: string | readonly Message[], options: ChatStoreOptions): Promise<() => DurableChat> {
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
export function storedChatRun(chat: object, input: string | readonly Message[], options: ChatStoreOptions): GroupChatRun {
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
export function storedChatResume(
  chat: object,
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
 * under way goes on from its agent's last step (a model call in flight is
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
  const start = await prepareChatResume(chat, chatId, options);
  try {
    return start();
  } catch (error) {
    await start.released;
    throw error;
  }
}

async function prepareChatResume(
  chat: object,
  chatId: string,
  options: Pick<GroupChatRunOptions, 'signal' | 'inspect'> & StoreOptions,
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
    if (internals.snapshotKey !== undefined) verifySnapshot(stored.state, internals.snapshotKey, 'stored chat');
    const { signature: _signature, ...unsigned } = stored.state as { signature?: string };
    const checkpoint = parseChatSnapshot(unsigned, internals.runtime.participants, { checkpoint: true });
    const { waiting, inDoubt, runId } = withChatInDoubtRequests(checkpoint.waiting, await store.listCalls(chatId), internals);
    const start: (() => DurableChat) & { released?: Promise<void> } = () => {
      const session = chatSession(store, lease, leaseMs, internals);
      let run: GroupChatRun;
      try {
        run = internals.start(
          { ...resumedStart(checkpoint, waiting, internals, session.checkpoints), newRunId, checkpoints: session.checkpoints },
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

/** A chat that can be kept in a store: made by `createGroupChat`, its participants agents and people (no nested chat, no custom participant). */
function storableChat(chat: object): ChatInternals {
  const internals = chatInternalsOf(chat);
  const nested = [...internals.runtime.members.values()]
    .filter((member) => member.kind !== 'agent' && member.kind !== 'human')
    .map((member) => member.name);
  if (nested.length > 0) {
    throw new ConfigurationError(
      `Chat "${internals.name}" has nested chats or custom participants (${nested.join(', ')}): such a chat cannot be kept in a store yet. ` +
        'Run it without a store, or persist its waits with run.snapshot().',
      { nested },
    );
  }
  return internals;
}

/** Where a chat resumed from a checkpoint starts (throws `RunSnapshotError` for a speaker's run it refuses). */
function resumedStart(
  checkpoint: StoredChatCheckpoint,
  waiting: StoredChatCheckpoint['waiting'],
  internals: ChatInternals,
  checkpoints: ChatCheckpoints,
): ChatStart {
  const { chatId, messages, turns, rounds, lastSpeaker, sharedState, randomState } = checkpoint;
  const base = { chatId, messages, turns, rounds, lastSpeaker, sharedState, randomState };
  const wrap = (runtime: AgentRuntime, speaker: string) => checkpoints.speakerRuntime(runtime, speaker);
  switch (waiting.kind) {
    case 'selecting':
      return base;
    case 'turn':
      if (waiting.run === undefined) return { ...base, resumeWaiting: { kind: 'turn', speaker: waiting.speaker } };
      return { ...base, resumeWaiting: restoreSpeakerRun({ speaker: waiting.speaker, run: waiting.run as PersistedRun }, internals.runtime, wrap) };
    case 'approval': {
      const resumedFrom: GroupChatSnapshot = { ...checkpoint, version: 2, waiting };
      return { ...base, resumedFrom, resumeWaiting: restoreSpeakerRun(waiting, internals.runtime, wrap) };
    }
    case 'human':
    case 'choice':
      return { ...base, resumedFrom: { ...checkpoint, version: 2, waiting }, resumeWaiting: waiting };
    default:
      throw new RunSnapshotError('RUN_SNAPSHOT_INVALID', 'A stored chat does not wait inside a nested chat: it has none.', { path: 'waiting' });
  }
}

/**
 * The speaking agent's run with its in-doubt calls turned into approval
 * requests (see `withInDoubtRequests`): the chat then waits for them.
 */
function withChatInDoubtRequests(
  waiting: StoredChatCheckpoint['waiting'],
  journal: readonly ToolCallJournalEntry[],
  internals: ChatInternals,
): { waiting: StoredChatCheckpoint['waiting']; inDoubt: ToolCallJournalEntry[]; runId?: string } {
  if (!((waiting.kind === 'turn' && waiting.run !== undefined) || waiting.kind === 'approval')) return { waiting, inDoubt: [] };
  const member = internals.runtime.members.get(waiting.speaker);
  const runId = (waiting.run as { runId?: unknown } | null)?.runId;
  if (member?.kind !== 'agent' || typeof runId !== 'string') return { waiting, inDoubt: [] }; // restoring says what is wrong
  const prefix = `${runId}/`;
  const own = journal.filter((entry) => entry.callId.startsWith(prefix)).map((entry) => ({ ...entry, callId: entry.callId.slice(prefix.length) }));
  const { snapshot, inDoubt } = withInDoubtRequests(waiting.run, own, member.turn.knownTools, member.turn.runtime().snapshotKey);
  if (snapshot === waiting.run) return { waiting, inDoubt, runId };
  const { approvals } = snapshot.machine.context;
  return { waiting: { kind: 'approval', speaker: waiting.speaker, requests: pendingRequests(approvals), run: snapshot }, inDoubt, runId };
}

/**
 * What a chat kept in the store runs with: its writer (chat checkpoints and
 * journal entries in order, under the chat's lease), the journal middleware
 * every speaking agent gets, the checkpoint hooks, and once attached the
 * lease keeper and the end. A lost lease (or a failed write) aborts the chat.
 */
function chatSession(store: RunStore, lease: RunLease, leaseMs: number, internals: ChatInternals) {
  let chat: GroupChatRun | undefined;
  let context: (() => ManagerContext) | undefined;
  const session = new StoreSession(store, lease, leaseMs, () => chat?.abort(), chatCallId);
  const { writer, journal } = session;
  const key: SnapshotKey | undefined = internals.snapshotKey;
  /** The chat's part of a checkpoint, frozen now (the manager replaces, never mutates, what it changes). */
  const freezeChat = (now: ManagerContext) => ({
    version: 2,
    chatId: now.run.chatId,
    messages: now.messages,
    turns: now.turns,
    rounds: now.rounds,
    lastSpeaker: now.lastSpeaker,
    sharedState: stateValues(now),
    randomState: now.randomState,
  });
  const save = (
    status: 'running' | 'waiting',
    chatPart: ReturnType<typeof freezeChat>,
    waiting: () => ChatStoreCheckpoint | GroupChatSnapshot['waiting'],
  ) => {
    writer.checkpoint(status, () => {
      const state = JSON.parse(JSON.stringify({ ...chatPart, waiting: waiting() })) as object;
      return key === undefined ? state : signSnapshot(state, key);
    });
  };
  const speakerHooks = (speaker: string, runKey: SnapshotKey | undefined) =>
    checkpointHooks((agentContext, value) => {
      if (context === undefined) return;
      const frozenRun = freezeCheckpoint(agentContext, value, false);
      const chatPart = freezeChat(context());
      if (value === 'awaitingApproval') {
        const requests = pendingRequests(agentContext.approvals);
        save('waiting', chatPart, () => ({ kind: 'approval', speaker, requests, run: checkpointSnapshot(frozenRun, runKey) }));
      } else save('running', chatPart, () => ({ kind: 'turn', speaker, run: checkpointSnapshot(frozenRun, runKey) }));
    });
  const checkpoints: ChatCheckpoints = {
    bind(get) {
      context = get;
    },
    speakerRuntime: (runtime, speaker) =>
      agentRuntime(runtime, {
        liveTools: runtime.liveTools,
        middleware: [...runtime.middleware, journal],
        mirrorToolRules: runtime.mirrorToolRules ?? false,
        tokenBudget: runtime.tokenBudget,
        checkpoints: speakerHooks(speaker, runtime.snapshotKey),
      }),
    turnBegins: (now) => save('running', freezeChat(now), () => ({ kind: 'turn', speaker: now.speaker as string })),
    turnEnded: (now) => save('running', freezeChat(now), () => ({ kind: 'selecting' })),
    waitingForHuman: (now) => save('waiting', freezeChat(now), () => ({ kind: 'human', speaker: now.speaker as string })),
    waitingForChoice: (now) => {
      const eligible = now.selection.eligible;
      save('waiting', freezeChat(now), () => ({ kind: 'choice', eligible }));
    },
  };

  /** The first checkpoint of a new chat: its task, before the first speaker is decided. */
  const checkpointStart = () => {
    if (context !== undefined) save('running', freezeChat(context()), () => ({ kind: 'selecting' }));
  };

  const attach = (attached: GroupChatRun, inDoubt: readonly ToolCallJournalEntry[], runId?: string): DurableChat => {
    chat = attached;
    if (session.failure !== undefined) attached.abort();
    session.keepLease();
    return {
      chat: attached,
      inDoubt,
      recordResult: (callId, result) => session.recordResult(inDoubt, callId, runId === undefined ? undefined : chatCallId(runId, callId), result),
      settled: session.settle(attached.result, (result) => ({
        format: 'agentchart.chat.finished',
        reason: result.reason,
        lastSpeaker: result.lastSpeaker ?? null,
      })),
    };
  };
  return { checkpoints, checkpointStart, attach, failed: () => (session.failure === undefined ? undefined : toErrorInfo(session.failure)) };
}
