import { randomUUID } from 'node:crypto';
import { type Message, checkPriceTable, tokenBudget } from '@agentchart/core';
import type { AnyStateMachine } from 'xstate';
import { assertOptions } from '../assertOptions.js';
import { DEFAULT_GROUP_CHAT_NAME, DEFAULT_SELECTOR_MAX_RETRIES } from '../constants.js';
import { combineInspectors } from '../inspection/inspectOption.js';
import { runInputMessages } from '../runInputMessages.js';
import type { ToolSourceAgent } from '../agent/tools/agentToolSources.js';
import { toolSourceAgentOf } from './participantOf.js';
import { analyzeTransitions } from './analyzeTransitions.js';
import { buildChatMembers, participantRoutes } from './chatMembers.js';
import type { ChatMember } from './chatMember.js';
import { type ChatStart, startChatRun } from './chatRun.js';
import type { ChatRuntime, SelectionMethod } from './chatRuntime.js';
import { GroupChatOptionsSchema, GroupChatRunOptionsSchema } from './groupChatOptionsSchema.js';
import { TransitionGraphError, type TransitionProblem } from './groupChatErrors.js';
import type { GroupChatRunOptions, SpeakerSelection, TerminateCondition } from './groupChatTypes.js';
import type { GroupChatSnapshot } from '../participant/chatWaiting.js';
import type { GroupChatOptions, NestedChatParticipant } from './groupChatOptions.js';
import type { GroupChatRun } from './groupChatRun.js';
import { sharedSpeakerGraph } from './sharedSpeakerGraph.js';
import { nestedChatProtocol } from './nestedChatProtocol.js';
import { PARTICIPANT_PROTOCOL, type ProvidesParticipantProtocol } from '../participant/participantProtocol.js';
import { restoreTurns } from './restoreTurns.js';
import { parseChatSnapshot } from './chatSnapshot.js';
import { checkPersistedTurn } from './turnPersistence.js';
import { keywordPredicate } from './reviewTurn.js';
import { checkInputSpeakers } from './unknownSpeakers.js';
import { CHAT_INTERNALS, type ChatInternals, type ProvidesChatInternals } from './chatInternals.js';
import { type SnapshotKey, checkSnapshotKey } from '../agent/run/snapshotSignature.js';
import type { ChatStoreRuns } from './chatStoreRuns.js';
import type { Residence } from '../participant/residence.js';
import { ResidentChat } from './residentChat.js';
import type { StoreOptions } from '../storeOptions.js';

/** A group chat: its configuration, checked at creation, and `run`/`resume`. */
export interface GroupChat extends NestedChatParticipant {
  /** Participant names, in round-robin order. */
  readonly participants: readonly string[];
  /** Each participant's name and description (its `description`, else an agent's instructions), in round-robin order. */
  readonly members: readonly { readonly name: string; readonly description: string }[];
  /** The compiled speaker transitions (a state per last speaker), for inspection. */
  readonly transitions: AnyStateMachine;
  /** Speakers with no way out and participants that can never speak, each with its path. */
  readonly warnings: readonly TransitionProblem[];
  /**
   * Runs the chat on a task (a text or messages). Saved messages continue a
   * chat: turns are recovered from the participants' named messages. A
   * message named for someone who is not a participant throws
   * `UnknownSpeakerError`, unless `unknownSpeakers: 'context'`.
   *
   * @example
   * const run = chat.run('Plan a weekend in Lisbon.');
   * run.events$.subscribe((event) => console.log(event.type));
   * const { reason, lastSpeaker, messages } = await run.result;
   */
  run(input: string | readonly Message[], options?: GroupChatRunOptions): GroupChatRun;
  /**
   * Continues a chat persisted with `run.snapshot()` (possibly in another
   * process); throws `ChatSnapshotError` for anything else. Given a chat id
   * and a `store`, continues a chat kept in the store from its last checkpoint.
   */
  resume(snapshot: unknown, options?: Pick<GroupChatRunOptions, 'signal' | 'inspect'> & Partial<StoreOptions>): GroupChatRun;
  /** Closes what its participants hold (agents' tool sources: MCP connections, child processes), nested chats too. */
  close(): Promise<void>;
}

/** Where a run starts, and with which per-run options. */
type StartOptions = Pick<GroupChatRunOptions, 'signal' | 'inspect' | 'maxTokens'>;

/**
 * A chat made by `createGroupChat` from its options (the facade hands in how
 * runs with `{ store }` are kept: `storeRuns`): a class, so the thousands of
 * idle chats a server may hold share their methods instead of each holding closures.
 *
 * @example
 * const chat = new ConfiguredGroupChat({ agents: [planner, critic] }, chatStoreRuns);
 */
export class ConfiguredGroupChat implements GroupChat, ProvidesParticipantProtocol, ProvidesChatInternals {
  readonly kind = 'group-chat';
  readonly name: string;
  readonly description: string | undefined;
  readonly participants: readonly string[];
  readonly members: readonly { readonly name: string; readonly description: string }[];
  readonly transitions: AnyStateMachine;
  readonly warnings: readonly TransitionProblem[];
  private readonly runtime: ChatRuntime;
  private readonly options: GroupChatOptions;
  private readonly snapshotKey: SnapshotKey | undefined;
  private readonly storeRuns: ChatStoreRuns;

  constructor(options: GroupChatOptions, storeRuns: ChatStoreRuns) {
    this.storeRuns = storeRuns;
    const { runtime, warnings } = buildChatRuntime(options);
    this.options = options;
    this.runtime = runtime;
    this.name = options.name ?? DEFAULT_GROUP_CHAT_NAME;
    this.description = options.description;
    this.participants = runtime.participants;
    this.members = runtime.participants.map((name) => ({ name, description: runtime.members.get(name)?.description ?? '' }));
    this.transitions = runtime.graph.machine;
    this.warnings = warnings;
    this.snapshotKey = checkSnapshotKey(options.snapshotKey, 'createGroupChat(options)');
  }

  run(input: string | readonly Message[], runOptions: GroupChatRunOptions = {}): GroupChatRun {
    if (runOptions.store !== undefined) return this.storeRuns.run(this[CHAT_INTERNALS](), input, { ...runOptions, store: runOptions.store });
    return this.runChat(input, runOptions).run;
  }

  resume(snapshot: unknown, runOptions: Pick<GroupChatRunOptions, 'signal' | 'inspect'> & Partial<StoreOptions> = {}): GroupChatRun {
    if (typeof snapshot === 'string' && runOptions.store !== undefined) {
      return this.storeRuns.resume(this[CHAT_INTERNALS](), snapshot, { ...runOptions, store: runOptions.store });
    }
    return this.resumeChat(snapshot, runOptions).run;
  }

  async close(): Promise<void> {
    const closable = this.options.agents.map((member) => ('agent' in member ? member.agent : member) as { close?: () => Promise<void> });
    await Promise.allSettled(closable.map((participant) => (typeof participant.close === 'function' ? participant.close() : undefined)));
  }

  /** What this chat gives a chat it takes part in, beyond run and resume: its runs' transcripts so far, and resume's check. */
  [PARTICIPANT_PROTOCOL]() {
    return nestedChatProtocol(this, {
      run: (input, runOptions, checkpoints, residence) => {
        const chatStart = this.newStart(input, runOptions);
        return this.start(checkpoints === undefined ? chatStart : { ...chatStart, checkpoints }, runOptions, residence);
      },
      resume: (snapshot, runOptions, residence) => this.start(this.resumeStart(snapshot), runOptions, residence),
      checkSnapshot: (snapshot) => this.resumeStart(snapshot).resumedFrom,
      stored: this.storeRuns.nested(this.runtime, this.snapshotKey, (chatStart, runOptions, residence) =>
        this.start(chatStart, runOptions, residence),
      ),
    });
  }

  /** What the store's chat runs need (`durable/storedChats.ts`). */
  [CHAT_INTERNALS](): ChatInternals {
    return {
      name: this.name,
      runtime: this.runtime,
      snapshotKey: this.snapshotKey,
      newStart: (input, runOptions) => this.newStart(input, runOptions),
      start: (chatStart, runOptions) => this.start(chatStart, runOptions).run,
    };
  }

  private runChat(input: string | readonly Message[], runOptions: GroupChatRunOptions) {
    return this.start(this.newStart(input, runOptions), runOptions);
  }

  private resumeChat(snapshot: unknown, runOptions: Pick<GroupChatRunOptions, 'signal' | 'inspect'>) {
    return this.start(this.resumeStart(snapshot), runOptions);
  }

  /**
   * Starts a run from `chatStart`. In a turn of an outer chat (`residence`,
   * see `TurnContext.residence`) the run is taken by this chat's resident
   * manager for the outer run, kept there (made by the first such run, or
   * again after it failed).
   */
  private start(chatStart: ChatStart, runOptions: StartOptions, residence?: Residence) {
    const { runtime } = this;
    const budget = runOptions.maxTokens === undefined ? runtime.tokenBudget : tokenBudget(runOptions.maxTokens, 'chat.run(input, { maxTokens })');
    const resident = residence?.keep(
      this,
      () => new ResidentChat(),
      (kept) => kept.usable(),
    );
    return startChatRun(
      runtime,
      { ...chatStart, tokenBudget: budget },
      runOptions.signal,
      combineInspectors(this.options.inspect, runOptions.inspect),
      resident,
    );
  }

  /** Where a new run on `input` starts, every part of it checked. */
  private newStart(input: string | readonly Message[], runOptions: GroupChatRunOptions): ChatStart {
    const { runtime } = this;
    assertOptions(GroupChatRunOptionsSchema, runOptions, 'chat.run(input, options)');
    const messages = runInputMessages(input, 'chat.run(input)');
    checkInputSpeakers(messages, runtime.participants, runOptions.unknownSpeakers ?? 'refuse');
    const chatId = runOptions.chatId ?? `chat_${randomUUID()}`;
    const initialState = runOptions.sharedState ?? this.options.sharedState;
    return {
      chatId,
      messages,
      turns: restoreTurns(messages, runtime.participants, runtime.handoffToolNames),
      sharedState: initialState === undefined ? {} : structuredClone(initialState),
      randomState: initialRandomState(runtime.selection, runOptions.randomSeed),
      ...(runOptions.chatId === undefined || runOptions.store !== undefined ? {} : { newRunId: sequentialRunIds(chatId) }),
    };
  }

  /** Where a run resumed from `snapshot` starts, every part of it checked (throws before anything runs). */
  private resumeStart(snapshot: unknown): ChatStart & { resumedFrom: GroupChatSnapshot } {
    const { runtime } = this;
    const copy = parseChatSnapshot(snapshot, runtime.participants);
    return {
      chatId: copy.chatId,
      messages: copy.messages,
      turns: copy.turns,
      rounds: copy.rounds,
      lastSpeaker: copy.lastSpeaker,
      sharedState: copy.sharedState,
      randomState: copy.randomState,
      resumedFrom: copy,
      // The turn it stands in, checked by the persistence of the participant whose turn it is.
      resumeWaiting: copy.waiting.kind === 'choice' ? { into: 'selecting' } : checkPersistedTurn(copy.waiting, runtime, {}),
    };
  }
}

function buildChatRuntime(options: GroupChatOptions): { runtime: ChatRuntime; warnings: TransitionProblem[] } {
  assertOptions(GroupChatOptionsSchema, options, 'createGroupChat(options)');
  const members = buildChatMembers(options.agents);
  const participants = members.map((member) => member.name);
  const views = options.views ?? 'broadcast';
  const graph = sharedSpeakerGraph(participants, options);
  const problems = analyzeTransitions(graph, participantRoutes(members));
  const errors = problems.filter((problem) => problem.severity === 'error');
  if (errors.length > 0) throw new TransitionGraphError(errors);
  const runtime: ChatRuntime = {
    name: options.name,
    members: new Map(members.map((member) => [member.name, member])),
    participants,
    graph,
    selection: normalizeSelection(options.speakerSelection),
    maxRounds: options.maxRounds,
    isTerminationMessage: normalizeTerminate(options.terminate),
    views,
    handoffToolNames: handoffToolNamesOf(members),
    tokenBudget: tokenBudget(options.maxTokens, 'createGroupChat({ maxTokens })'),
    prices: checkPriceTable(options.prices, 'createGroupChat({ prices })'),
    toolSourceAgents: toolSourceAgentsOf(options),
  };
  return { runtime, warnings: problems.filter((problem) => problem.severity === 'warning') };
}

const noHandoffTools: ReadonlySet<string> = new Set();

/** The participants made by `createAgent({ toolSources })`, by name. */
function toolSourceAgentsOf(options: GroupChatOptions): ReadonlyMap<string, ToolSourceAgent> {
  const found = new Map<string, ToolSourceAgent>();
  for (const member of options.agents) {
    const participant = typeof member === 'object' && member !== null && 'agent' in member ? member.agent : member;
    const entry = toolSourceAgentOf(participant);
    if (entry !== undefined) found.set(participant.name, entry);
  }
  return found;
}

/** Every handoff tool name of every member (one shared empty set for the many chats without handoffs). */
function handoffToolNamesOf(members: readonly ChatMember[]): ReadonlySet<string> {
  const names = members.flatMap((member) => [...member.handoffTools.keys()]);
  return names.length === 0 ? noHandoffTools : new Set(names);
}

/** The selection method, its shape already checked (`GroupChatOptionsSchema`), with defaults filled in. */
function normalizeSelection(selection: SpeakerSelection): SelectionMethod {
  if (typeof selection === 'function') return { method: 'function', select: selection };
  if (selection === 'round_robin' || selection === 'manual') return { method: selection };
  if (selection === 'random') return { method: 'random', seed: undefined };
  if (selection.method === 'random') return { method: 'random', seed: selection.seed };
  const maxRetries = selection.maxRetries ?? DEFAULT_SELECTOR_MAX_RETRIES;
  return { method: 'auto', model: selection.model, maxRetries, instructions: selection.instructions };
}

/** The termination predicate, its shape already checked (`GroupChatOptionsSchema`). */
function normalizeTerminate(terminate: TerminateCondition | undefined): ChatRuntime['isTerminationMessage'] {
  if (terminate === undefined || typeof terminate === 'function') return terminate;
  return keywordPredicate(typeof terminate === 'string' ? [terminate] : terminate);
}

/** Run ids `<chatId>/run-1`, `<chatId>/run-2`, … in the order the chat's turns start. */
function sequentialRunIds(chatId: string): () => string {
  let next = 0;
  return () => `${chatId}/run-${++next}`;
}

function initialRandomState(selection: SelectionMethod, runSeed: number | undefined): number {
  if (runSeed !== undefined) return runSeed | 0;
  if (selection.method === 'random' && selection.seed !== undefined) return selection.seed | 0;
  return (Math.random() * 2 ** 32) | 0;
}
