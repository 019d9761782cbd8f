import { ApprovalError } from '@agentchart/core';
import { Subject, filter, map } from 'rxjs';
import type { Actor } from 'xstate';
import { pendingRequests } from '../agent/machine/approvals.js';
import { persistRun } from '../agent/run/runSnapshot.js';
import { snapshotVersion } from './chatSnapshot.js';
import type { ChatRuntime } from './chatRuntime.js';
import { ChatNotWaitingError, IneligibleSpeakerError } from './groupChatErrors.js';
import type { GroupChatResult } from './groupChatTypes.js';
import type { ChatEvent } from '../participant/chatEvent.js';
import type { ChatWaiting, GroupChatSnapshot } from '../participant/chatWaiting.js';
import type { GroupChatRun } from './groupChatRun.js';
import { speakerOf, stateValues } from './managerContext.js';
import type { ChatControlEvent, ManagerInput, managerMachine } from './managerMachine.js';
import { createManagerActor } from './resumedManager.js';
import type { ChatRunStarted } from './chatRunStarted.js';
import type { DelegatedTurn } from '../participant/participantProtocol.js';
import { transcriptSoFar } from './partialTurn.js';
import { persistedWaiting } from './persistedWaiting.js';
import { followChatToolSources, loadChatToolSources } from './chatToolSources.js';
import { type InspectOption, combineInspectors } from '../inspection/inspectOption.js';
import { announceRun, globalInspectors, runsObserved } from '../inspection/runObservers.js';
import { AnsweredWaits } from '../rootRun/answeredWaits.js';
import { announceWaitsOnceWritten } from '../rootRun/announcementGate.js';
import { startRootRun } from '../rootRun/startRootRun.js';
import { speakingResident } from './residentAgents.js';
import type { ManagerRunActor, ResidentChat } from './residentChat.js';
import { answerInput } from '../rootRun/inputRequests.js';

/**
 * Where a run starts: a new task, saved messages, or a persisted snapshot
 * (`resumedFrom`). `startAfter` holds the start until it resolves (an awaited
 * resume: the caller gets the run before its first event).
 */
export type ChatStart = Omit<ManagerInput, 'runtime' | 'publish' | 'inspect'> & { resumedFrom?: GroupChatSnapshot; startAfter?: Promise<void> };

/**
 * The run's manager (what is per actor; the rest of `startChatRun` is per
 * run): a new manager actor, or the next run of a nested chat's resident
 * manager (`ResidentChat`), which looks to the run like an actor of its own.
 */
function managerActor(
  input: ManagerInput,
  resident: ResidentChat | undefined,
): { run: ManagerRunActor; manager: Actor<typeof managerMachine>; ended: () => boolean; output?: () => unknown } {
  if (resident !== undefined) {
    const run = resident.run(input, input.inspect);
    return { run, manager: run.manager, ended: () => run.ended, output: () => run.output };
  }
  const manager = createManagerActor(input, combineInspectors(input.inspect, ...globalInspectors()));
  return { run: manager, manager, ended: () => manager.getSnapshot().status !== 'active' };
}

const isControl = (event: ChatEvent): event is ChatControlEvent =>
  event.type === 'human.said' || event.type === 'speaker.chosen' || event.type === 'approval.decide';

/**
 * Starts the manager machine for one run and wires its handle (returned with
 * the run's transcript so far, which only its own chat reads): an RxJS
 * Subject is the chat's bus; the manager's events go onto it (`actor.on`),
 * the speakers' events are bridged onto it, and a person's `say`/`select`
 * travel on it into the manager (a subscription that sends them to it).
 */
export function startChatRun(
  runtime: ChatRuntime,
  { resumedFrom, startAfter, ...start }: ChatStart,
  signal: AbortSignal | undefined,
  inspect: InspectOption | undefined,
  resident?: ResidentChat,
): ChatRunStarted {
  const bus = new Subject<ChatEvent>();
  // The speakers' events go onto the bus in order with the manager's (behind an announcement held for the store).
  let ordered = (event: ChatEvent) => bus.next(event);
  const publish = (event: ChatEvent) => ordered(event);
  const { run: actor, manager, ended, output } = managerActor({ ...start, runtime, publish, inspect }, resident);
  start.checkpoints?.bind(() => actor.getSnapshot().context);
  // A person's `say`, `select` and approval decisions travel on the bus into the manager (only once it waits: it has started).
  // (A run that fails before it starts errors the bus: `result` and `events$` report that, not this subscription.)
  const controls = bus.subscribe({
    next: (event) => {
      if (isControl(event)) actor.send(event);
    },
    error: () => {},
  });
  /** A resumed chat before it starts (on the next microtask): it waits as persisted. */
  const notStarted = () => resumedFrom !== undefined && !ended() && actor.getSnapshot().matches('idle');
  // A chat resumed in a speaker's turn (its agent waiting for approval, or a wait inside its nested chat)
  // and aborted before it started is aborted in that turn, so that the turn is kept (a partial turn).
  const resumesTurn = resumedFrom !== undefined && ['approval', 'nested', 'participant'].includes(resumedFrom.waiting.kind);
  // Agents with tool sources are loaded before the first turn, and their list changes followed into turns (chatToolSources.ts).
  const loadController = runtime.toolSourceAgents.size === 0 ? undefined : new AbortController();
  const loaded = loadController === undefined ? undefined : loadChatToolSources(runtime, loadController.signal);
  const loading = startAfter === undefined ? loaded : Promise.all([loaded, startAfter]).then(([tools]) => tools);
  let stopFollowing = () => {};
  const root = startRootRun<ChatEvent, GroupChatResult>(actor, {
    bus,
    signal,
    sendStart: true,
    sharedState: { slot: actor.getSnapshot().context.run.sharedState },
    stateEvent: (change) => ({ type: 'state.changed', chatId: start.chatId, change }),
    ...(output === undefined ? {} : { output }),
    holdAbort: () => resumesTurn && notStarted(),
    ...(loading === undefined
      ? {}
      : {
          prepare: {
            ready: loading.then((tools) => {
              if (tools !== undefined) stopFollowing = followChatToolSources(runtime, tools, speakingAgent);
            }),
            cancel: () => loadController?.abort(),
          },
        }),
    release: () => {
      stopFollowing();
      controls.unsubscribe();
    },
    ...announceWaitsOnceWritten(
      start.checkpoints?.written,
      (event: ChatEvent) => event.type === 'agent.event' && event.event.type === 'approval.requested',
    ),
  });
  ordered = root.publish;

  /** The resident actor of the agent taking its turn now, on the actor path (see `residentAgents.ts`). */
  const speakerRun = () => {
    const snapshot = actor.getSnapshot();
    return !ended() && snapshot.matches({ speaking: 'agent' }) ? speakingResident(snapshot.context) : undefined;
  };
  /** The agent taking its turn now (for tool-source list changes). */
  const speakingAgent = () => {
    const snapshot = actor.getSnapshot();
    const run = speakerRun();
    return run === undefined ? undefined : { name: speakerOf(snapshot.context), actor: run };
  };

  const waiting = (): ChatWaiting | undefined => {
    if (ended()) return undefined;
    const snapshot = actor.getSnapshot();
    if (resumedFrom !== undefined && notStarted()) return persistedWaiting(resumedFrom.waiting);
    if (snapshot.matches({ speaking: 'human' })) return { kind: 'human', speaker: speakerOf(snapshot.context) };
    if (snapshot.matches('awaitingChoice')) return { kind: 'choice', eligible: snapshot.context.selection.eligible };
    const agent = speakerRun()?.getSnapshot();
    if (agent?.matches('awaitingApproval')) {
      return { kind: 'approval', speaker: speakerOf(snapshot.context), requests: pendingRequests(agent.context.approvals) };
    }
    const inner = waitingNested()?.waiting();
    return inner === undefined ? undefined : { ...inner, within: [speakerOf(snapshot.context), ...(inner.within ?? [])] };
  };

  /** The turn a nested chat or a custom participant takes now, when it waits for a person: the handle's answers go to it. */
  const waitingNested = (): DelegatedTurn | undefined => {
    const snapshot = actor.getSnapshot();
    const delegated = snapshot.matches({ speaking: 'chat' }) || snapshot.matches({ speaking: 'custom' });
    const turn = delegated ? snapshot.context.run.currentTurn.turn : undefined;
    return turn?.waiting() === undefined ? undefined : turn;
  };

  const decide = (id: string, approved: boolean, reason: string | undefined) => {
    const nested = waitingNested();
    if (nested !== undefined) return approved ? nested.approve(id) : nested.reject(id, reason);
    const now = waiting();
    const pending = now?.kind === 'approval' ? now.requests.map((request) => request.id) : [];
    if (now?.kind !== 'approval' || !pending.includes(id)) {
      throw new ApprovalError(id, pending, 'The chat is not waiting for a tool approval (read run.waiting() first).');
    }
    const decision: ChatControlEvent = { type: 'approval.decide', chatId: start.chatId, speaker: now.speaker, id, approved };
    if (reason !== undefined) decision.reason = reason;
    const requests = notStarted() ? undefined : speakerRun()?.getSnapshot().context.approvals.requests;
    if (requests !== undefined && (early.holding(`call:${id}`) || !answered.take(requests, `call:${id}`))) {
      throw new ApprovalError(
        id,
        pending.filter((other) => !answered.has(requests, `call:${other}`)),
        `The call "${id}" of "${now.speaker}" is decided already (the decision is being taken): decide each call once.`,
      );
    }
    give(now, decision, (nested) => (approved ? nested.approve(id) : nested.reject(id, reason)));
  };

  /**
   * Takes the one answer a person's turn or a manual choice gets (a second,
   * given before the first is taken, is refused: never kept for a later
   * wait). A resumed chat not started yet checks its answers itself (`earlyAnswers`).
   */
  const takeAnswer = (now: ChatWaiting) => {
    if (notStarted()) return;
    const { selection, rounds } = actor.getSnapshot().context;
    if (!early.holding('answer') && answered.take(selection, `answer:${rounds}`)) return;
    const wait = now.kind === 'human' ? `the turn of "${now.speaker}"` : 'the choice of the next speaker';
    throw new ChatNotWaitingError(`The chat's wait for ${wait} is answered already (the answer is being taken): answer each wait once.`, {
      waiting: now,
    });
  };
  const answered = new AnsweredWaits();

  /**
   * Gives a person's answer, checked against `now`: onto the bus for this
   * chat's manager, or to the nested chat the wait is in. A resumed chat
   * that has not started yet gets it once it has (it starts on the next microtask).
   */
  const give = (now: ChatWaiting, event: ChatControlEvent, toNested: (nested: DelegatedTurn) => void) => {
    const deliver = () => {
      if (now.within === undefined) return bus.next(event);
      const nested = waitingNested();
      if (nested !== undefined) toNested(nested);
    };
    if (notStarted()) early.hold(now, event, deliver);
    else deliver();
  };
  const early = earlyAnswers(bus, notStarted);

  const { events$ } = root;
  // Built only when someone observes every run (`observeAllRuns`).
  if (runsObserved()) {
    announceRun({
      runId: start.chatId,
      name: runtime.name,
      events$: events$.pipe(
        filter((event): event is Extract<ChatEvent, { type: 'agent.event' }> => event.type === 'agent.event'),
        map((event) => event.event),
      ),
      chatEvents$: events$,
      machines: { speakers: runtime.graph.machine },
      // A nested chat's run is taken by its resident manager for the outer run.
      ...(resident === undefined ? {} : { nested: true }),
    });
  }

  const handle: GroupChatRun = {
    chatId: start.chatId,
    actor: manager,
    events$,
    result: root.result,
    // The shared state's handle is made when first asked for (`startRootRun`).
    get state() {
      return root.state;
    },
    abort: root.abort,
    waiting,
    say(text, options = {}) {
      const nested = waitingNested();
      if (nested !== undefined) return nested.say(text, options);
      const now = waiting();
      if (now?.kind !== 'human' || (options.as !== undefined && options.as !== now.speaker)) {
        throw new ChatNotWaitingError(
          now?.kind === 'human'
            ? `The chat waits for "${now.speaker}", not "${String(options.as)}".`
            : 'The chat is not waiting for a person: call say() after a `human.waiting` event.',
          { waiting: now },
        );
      }
      takeAnswer(now);
      give(now, { type: 'human.said', chatId: start.chatId, speaker: now.speaker, text }, (nested) => nested.say(text, options));
    },
    approve: (id) => decide(id, true, undefined),
    reject: (id, reason) => decide(id, false, reason),
    // A question of the speaking agent's running call (`input.requested`); its run is the turn's.
    answer: (id, answer) => answerInput(id, answer, (runId) => runId === speakerRun()?.getSnapshot().context.runId),
    select(speaker) {
      const nested = waitingNested();
      if (nested !== undefined) return nested.select(speaker);
      const now = waiting();
      if (now?.kind !== 'choice') {
        throw new ChatNotWaitingError('The chat is not waiting for a speaker choice: call select() after a `speaker.choice.requested` event.', {
          waiting: now,
        });
      }
      if (speaker !== 'terminate' && !now.eligible.includes(speaker)) throw new IneligibleSpeakerError(speaker, now.eligible, 'select()');
      takeAnswer(now);
      give(now, { type: 'speaker.chosen', chatId: start.chatId, speaker }, (nested) => nested.select(speaker));
    },
    snapshot(): GroupChatSnapshot {
      // Not started yet, a resumed chat is the snapshot it was resumed from (in the version written now).
      if (resumedFrom !== undefined && notStarted()) {
        return structuredClone({ ...resumedFrom, version: snapshotVersion(resumedFrom.waiting) });
      }
      const now = waiting();
      if (now === undefined) {
        throw new ChatNotWaitingError('A chat can be persisted only while it waits for a person: a human turn, a manual choice or a tool approval.', {
          waiting: now,
        });
      }
      const { context } = actor.getSnapshot();
      const nested = waitingNested();
      let persisted: GroupChatSnapshot['waiting'];
      if (nested !== undefined) persisted = nested.persist();
      else if (now.kind === 'approval') {
        const run = speakerRun();
        if (run === undefined) throw new Error('The chat waits for an approval without a speaking agent (a bug in agentchart).');
        persisted = { ...now, run: persistRun(run) };
      } else persisted = now;
      return structuredClone({
        version: snapshotVersion(persisted),
        chatId: context.run.chatId,
        messages: context.messages,
        turns: context.turns,
        rounds: context.rounds,
        lastSpeaker: context.lastSpeaker,
        sharedState: stateValues(context),
        randomState: context.randomState,
        waiting: persisted,
      });
    },
  };
  return { run: handle, transcriptSoFar: () => transcriptSoFar(actor.getSnapshot().context, speakerRun()) };
}

/**
 * The answers given to a resumed chat before it has started (its agents'
 * tool sources may take a while to load): each checked against the wait it
 * was resumed in, kept, and delivered once the chat has started (after its
 * first event), each once. The wait takes one answer (a person's turn, a
 * choice) or one decision per pending call; another is refused.
 */
function earlyAnswers(bus: Subject<ChatEvent>, notStarted: () => boolean) {
  const held: (() => void)[] = [];
  const answered = new Set<string>();
  let watching: { unsubscribe(): void } | undefined;
  const flush = () => {
    if (notStarted()) return;
    watching?.unsubscribe();
    for (const deliver of held.splice(0)) deliver();
  };
  return {
    hold(now: ChatWaiting, event: ChatControlEvent, deliver: () => void) {
      const key = event.type === 'approval.decide' ? `call:${event.id}` : 'answer';
      if (answered.has(key)) {
        if (event.type === 'approval.decide') {
          throw new ApprovalError(event.id, [], `The call "${event.id}" is already decided: the decision is delivered once the chat has started.`);
        }
        throw new ChatNotWaitingError('The wait this chat was resumed in is already answered: the answer is delivered once the chat has started.', {
          waiting: now,
        });
      }
      answered.add(key);
      held.push(deliver);
      watching ??= bus.subscribe({ next: () => queueMicrotask(flush), error: () => {} });
    },
    /** Whether an answer `key` (`call:<id>`, or `answer`) is held, not yet delivered: the chat has started, the wait is still that one. */
    holding: (key: string) => held.length > 0 && answered.has(key),
  };
}
