import type { Message, TokenBudget } from '@agentchart/core';
import { toErrorInfo } from '@agentchart/core/internal';
import { type Actor, type AnyActorRef, assign, emit, enqueueActions, sendTo, setup } from 'xstate';
import type { agentMachine } from '../agent/machine/agentMachine.js';
import type { AgentMachineInput } from '../agent/machine/agentMachineInput.js';
import type { AgentTurnDoneEvent } from '../agent/machine/agentTurn.js';
import type { InspectOption } from '../inspection/inspectOption.js';
import { SHARED_STATE_SYSTEM_ID, sharedStateMachine } from '../sharedState/sharedStateMachine.js';
import { SharedStateSlot } from '../sharedState/sharedStateSlot.js';
import type { RunResult } from '../agent/run/runResult.js';
import { newRunId } from '../ids.js';
import { askSelectorActor, buildSelectorRequest, parseSelectorAnswer } from './autoSelector.js';
import { TERMINATE } from './chatMember.js';
import { decisionUpdate } from './chatDecision.js';
import type { ChatCheckpoints } from './chatCheckpoints.js';
import type { ChatRuntime } from './chatRuntime.js';
import { viewFor } from './chatViews.js';
import type { GroupChatResult } from './groupChatTypes.js';
import type { ChatEvent, SelectionSource } from '../participant/chatEvent.js';
import type { ChatTurn } from '../participant/chatWaiting.js';
import type { ChatResume, ResumedTurnState } from './turnPersistence.js';
import { type ManagerContext, type ManagerRun, selected, speakerOf, speakingMember, stateValues } from './managerContext.js';
import type { DelegatedTurnInput } from './delegatedTurn.js';
import { partialTurn } from './partialTurn.js';
import { turnsPassedTo } from './reviewTurn.js';
import { type TurnEndPlan, turnEndPlan, writeTurnEnd } from './turnEnd.js';
import { type NextState, contextConditionTarget, nextState, nextTransitions, speaksNext, turnEndTransitions } from './nextTransitions.js';
import type { TurnOutcome } from '../participant/turnOutcome.js';
import { nestedMaxTokens, noSpend, turnRuntime } from './chatTokenBudget.js';
import { isNonEmpty, roundRobinAfter } from './selectionMethods.js';
import { adoptResident, agentChildId, planAgentTurn, spawnResident, speakingResident } from './residentAgents.js';
import { type ParticipantTurnDoneEvent, participantChildId, residentParticipant } from './residentParticipants.js';

/** Control events a person (through the run handle) puts on the bus for the manager. */
export type ChatControlEvent = Extract<ChatEvent, { type: 'human.said' | 'speaker.chosen' | 'approval.decide' }>;

export interface ManagerInput {
  runtime: ChatRuntime;
  chatId: string;
  messages: Message[];
  turns: ChatTurn[];
  /** Default: the number of turns. */
  rounds?: number;
  /** Default: the speaker of the last turn. */
  lastSpeaker?: string | undefined;
  /** The initial values of the chat's shared state. */
  sharedState: Record<string, unknown>;
  randomState: number;
  /** Gives each agent turn's run its id (default: a new random id each). */
  newRunId?: () => string;
  publish: (event: ChatEvent) => void;
  /** The run's `inspect` option, handed on to nested chats. */
  inspect?: InspectOption | undefined;
  /** Where a resumed chat starts, as the persisted turn's participant decided (`TurnPersistence`). */
  resumeWaiting?: ChatResume | undefined;
  /** The run's token budget. */
  tokenBudget?: TokenBudget | undefined;
  /** The checkpoint hooks of a chat kept in a store. */
  checkpoints?: ChatCheckpoints | undefined;
  /**
   * Set for a nested chat's resident manager (`ResidentChat`): the manager
   * lives for the outer run, and each outer turn is a run of it. Its end
   * goes back to `idle`, where a `run` command sets up the next run.
   */
  resident?: boolean;
}

export type ManagerEvent =
  | ChatControlEvent
  | { type: 'start' }
  | { type: 'abort' }
  /** A resident manager's next run, set up in `idle` (see `ManagerInput.resident`). */
  | { type: 'run'; input: ManagerInput }
  /** The speaking agent's resident actor ended its turn (see `residentAgents.ts`). */
  | AgentTurnDoneEvent
  /** The speaking nested chat's or custom participant's resident actor ended its turn (see `residentParticipants.ts`). */
  | ParticipantTurnDoneEvent;

/** The `auto` selector's reply, as the selection guards and actions read it. */
interface SelectorAnswer {
  answer: string;
}

/** Why the `auto` selection falls back to round robin: its model failed (`failure`), or it named nobody eligible. */
interface SelectorFallback {
  failure: { error: unknown } | undefined;
}

/**
 * The group-chat manager: selecting → speaking → (after the turn) selecting
 * … → terminated. Each speaker's turn is a child actor — the agent machine
 * for agents, a nested chat for chats — or a wait for a person's `say`.
 */
export const managerMachine = setup({
  types: {
    context: {} as ManagerContext,
    input: {} as ManagerInput,
    events: {} as ManagerEvent,
    emitted: {} as ChatEvent,
    output: {} as GroupChatResult,
  },
  actors: {
    sharedState: sharedStateMachine,
    // A delegated participant's resident actor, named for the inspector by what it is: a nested chat or a participant of the user's own.
    nestedChat: residentParticipant,
    participantTurn: residentParticipant,
    askSelector: askSelectorActor,
  },
  guards: {
    /** The chat resumes a persisted turn in the speaking state `state` (`TurnResume.into`). */
    resumesInto: ({ context }, { state }: { state: ResumedTurnState }) => context.resumeWaiting?.into === state,
    chatEnds: ({ context }) => context.reason !== undefined,
    /** The decided context leads to `to` (`nextState`). */
    decidedNext: ({ context }, { to }: { to: NextState }) => nextState(context) === to,
    /** The event ends the speaker's turn, and the turn's end leads to `to` (`turnEndPlan`). */
    turnLeadsTo: ({ context, event }, { to }: { to: NextState }) => turnEnd(context, event)?.target === to,
    contextConditionHolds: ({ context }) => contextConditionTarget(context) !== undefined,
    speakerIsHuman: ({ context }) => memberKind(context) === 'human',
    speakerIsChat: ({ context }) => memberKind(context) === 'chat',
    speakerIsCustom: ({ context }) => memberKind(context) === 'custom',
    /** A decision names the agent whose call it decides: it reaches that agent only (another's `call_1` is not its). */
    decidedForSpeaker: ({ context, event }) => event.type === 'approval.decide' && event.speaker === context.speaker,
    choseTerminate: ({ event }) => event.type === 'speaker.chosen' && event.speaker === TERMINATE,
    choseEligible: ({ context, event }) => event.type === 'speaker.chosen' && context.selection.eligible.includes(event.speaker),
    answerEligible: ({ context }, { answer }: SelectorAnswer) => parseSelectorAnswer(answer, context.selection.eligible) !== undefined,
    isResident: ({ context }) => context.run.resident,
    retriesLeft: ({ context }) =>
      context.runtime.selection.method === 'auto' && context.selection.rejected.length < context.runtime.selection.maxRetries,
  },
  actions: {
    announceStart: emit(({ context }) => ({
      type: 'chat.started' as const,
      chatId: context.run.chatId,
      name: context.runtime.name,
      messages: context.messages,
      resumed: context.turns.length > 0 || context.resumeWaiting !== undefined,
    })),
    /**
     * A persisted turn resumes: its speaker speaks. A turn that begins again
     * (`routing`: a person's, or one decided but not begun) needs nothing
     * more; the others keep what they continue from until their state takes it.
     */
    resumeTurn: assign(({ context }) => {
      const resume = context.resumeWaiting;
      if (resume === undefined || resume.into === 'selecting') throw new Error('resumeTurn needs a persisted turn (the resumesInto guard).');
      return { speaker: resume.speaker, resumeWaiting: resume.into === 'routing' ? undefined : resume };
    }),
    /**
     * After a turn (or at the start): the chat ends if the turn ended it or the
     * rounds are used up; otherwise decides who speaks next, and applies a
     * decision that names a speaker or an end in the same update.
     */
    decide: assign(({ context }) => decisionUpdate(context)),
    announceDecision: enqueueActions(({ context, enqueue }) => announceDecision(context, (event) => enqueue.emit(event))),
    requestChoice: enqueueActions(({ context, enqueue }) => {
      context.run.checkpoints?.waitingForChoice(context);
      enqueue.emit({ type: 'speaker.choice.requested' as const, chatId: context.run.chatId, eligible: context.selection.eligible });
    }),
    acceptChoice: enqueueActions(({ context, event, enqueue }) => {
      if (event.type !== 'speaker.chosen') return;
      enqueue.assign(selected(event.speaker));
      enqueue.emit(selectedEvent(context, event.speaker, 'manual'));
    }),
    endBySelector: assign({ reason: 'selector-terminate' as const }),
    acceptAnswer: enqueueActions(({ context, enqueue }, { answer }: SelectorAnswer) => {
      const speaker = parseSelectorAnswer(answer, context.selection.eligible);
      if (speaker === undefined) throw new Error('acceptAnswer needs an eligible answer (the answerEligible guard).');
      enqueue.assign(selected(speaker));
      enqueue.emit(selectedEvent(context, speaker, 'auto'));
    }),
    rejectAnswer: enqueueActions(({ context, enqueue }, { answer }: SelectorAnswer) => {
      const rejected = [...context.selection.rejected, answer];
      enqueue.assign({ selection: { ...context.selection, rejected } });
      enqueue.emit({ type: 'speaker.rejected', chatId: context.run.chatId, answer, eligible: context.selection.eligible, attempt: rejected.length });
    }),
    fallBack: enqueueActions(({ context, enqueue }, { failure }: SelectorFallback) => {
      const { eligible } = context.selection;
      if (!isNonEmpty(eligible)) throw new Error('fallBack needs eligible speakers (the auto selector is asked only among several).');
      const speaker = roundRobinAfter(context.runtime.participants, context.lastSpeaker, eligible);
      enqueue.emit({
        type: 'speaker.fallback',
        chatId: context.run.chatId,
        speaker,
        reason: failure === undefined ? 'ineligible-answers' : 'model-error',
        answers: context.selection.rejected,
        ...(failure === undefined ? {} : { error: toErrorInfo(failure.error) }),
      });
      enqueue.assign(selected(speaker));
      enqueue.emit(selectedEvent(context, speaker, 'fallback'));
    }),
    followContextCondition: enqueueActions(({ context, enqueue }) => {
      const from = speakerOf(context);
      const to = contextConditionTarget(context);
      if (to === undefined) throw new Error('followContextCondition needs a holding context condition (the contextConditionHolds guard).');
      enqueue.emit({ type: 'handoff', chatId: context.run.chatId, from, to, via: 'context' });
      if (to === TERMINATE) {
        enqueue.assign({ reason: 'handoff-terminate', lastSpeaker: from, redirects: context.redirects + 1 });
        return;
      }
      enqueue.assign({ speaker: to, lastSpeaker: from, redirects: context.redirects + 1 });
    }),
    /** A nested chat's or a custom participant's turn begins (checkpointed, in a store, before it starts). */
    beginTurn: assign(({ context }) => {
      const update = turnStart(context);
      context.run.checkpoints?.turnBegins({ ...context, ...update });
      return update;
    }),
    /**
     * A nested chat's or a custom participant's turn is taken by its resident
     * actor (`residentParticipants.ts`): spawned at the participant's first
     * turn of the run, then a `turn` command with the turn's input (a resumed
     * turn's persisted wait included).
     */
    takeDelegatedTurn: enqueueActions(({ context, enqueue }, { kind }: { kind: 'chat' | 'custom' }) => {
      const { name } = speakingMember(context, kind);
      const id = participantChildId(name);
      if (!context.run.participants.has(name)) {
        context.run.participants.add(name);
        enqueue.spawnChild(kind === 'chat' ? 'nestedChat' : 'participantTurn', { id, input: { name } });
      }
      enqueue.sendTo(id, { type: 'turn', input: delegatedTurnInput(context, kind) });
    }),
    /** Leaving a delegated turn before it ended (an abort): the turn is stopped, which aborts it (its `signal`). */
    stopDelegatedTurn: enqueueActions(({ context, event, enqueue }) => {
      if (event.type === 'participant.turn.done') return;
      enqueue.sendTo(participantChildId(speakerOf(context)), { type: 'turn.stop' });
    }),
    /** A person is shown the chat through `events$`, so their turn needs no view. */
    beginHumanTurn: assign(({ context }) => ({ turns: turnsPassedTo(speakerOf(context), context.turns), view: [] })),
    /**
     * An agent's turn begins, in one action: the agent's resident actor
     * takes it — spawned at the agent's first turn and started, a `turn`
     * command afterwards (`residentAgents.ts`).
     * A resumed turn's run goes on from its snapshot (the turn start is the
     * same function of the persisted transcript, so its view is the one it had).
     */
    beginAgentTurn: enqueueActions(({ context, enqueue, self }) => {
      const member = speakingMember(context, 'agent');
      const { turn, name } = member;
      const update = turnStart(context);
      const { run } = context;
      const resumed = context.resumeWaiting?.into === 'agent' ? context.resumeWaiting.run : undefined;
      if (resumed !== undefined) {
        // The agent is the manager's child already, restored with the manager (`resumedManagerSnapshot`).
        const { children } = self.getSnapshot() as { children: Record<string, Actor<typeof agentMachine> | undefined> };
        const restored = children[agentChildId(name)];
        if (restored === undefined) throw new Error('A chat resumed in an agent turn starts from resumedManagerSnapshot.');
        adoptResident(run, name, restored, turn.machine);
        enqueue.assign({ ...update, resumeWaiting: undefined });
        // A turn restored from a store checkpoint goes on from its agent's step.
        if (resumed.resumeAt !== undefined) enqueue.sendTo(agentChildId(name), { type: 'resume', at: resumed.resumeAt });
        return;
      }
      const runtime = turnRuntime(turn.runtime(true), context);
      run.checkpoints?.turnBegins({ ...context, ...update });
      const input: AgentMachineInput = {
        runtime: run.checkpoints === undefined ? runtime : run.checkpoints.speakerRuntime(runtime, name),
        runId: run.newRunId(),
        messages: update.view,
        toolMode: turn.toolMode,
        state: { slot: run.sharedState },
      };
      const plan = planAgentTurn(run.agents, name, input, turn.unusable);
      if (plan.kind === 'command') {
        enqueue.assign(update);
        enqueue.sendTo(agentChildId(name), plan.command);
        return;
      }
      if (plan.stale !== undefined) enqueue.stopChild(plan.stale);
      enqueue.assign(({ spawn }) => {
        spawnResident(spawn, run, name, { logic: plan.logic, input });
        return update;
      });
      // An agent whose tool sources changed into a list it cannot run with: its turn fails with why, before any model call.
      const { unusable } = turn;
      enqueue.sendTo(agentChildId(name), unusable === undefined ? { type: 'start' } : { type: 'tools.unusable', error: unusable });
    }),
    relayApprovalDecision: sendTo(
      ({ context }) => agentChildId(speakerOf(context)),
      ({ event }) => {
        if (event.type !== 'approval.decide') throw new Error('relayApprovalDecision needs an approval.decide event');
        const { id, approved, reason } = event;
        return reason === undefined ? { type: 'approval.decide' as const, id, approved } : { type: 'approval.decide' as const, id, approved, reason };
      },
    ),
    waitForHuman: enqueueActions(({ context, enqueue }) => {
      context.run.checkpoints?.waitingForHuman(context);
      enqueue.emit({ type: 'human.waiting' as const, chatId: context.run.chatId, speaker: speakerOf(context) });
    }),
    /** A turn's end, in one action: the turn recorded and the next speaker decided (`turnEnd.ts`). */
    endTurn: enqueueActions(({ context, event, enqueue }) => {
      const plan = turnEnd(context, event);
      if (plan === undefined) throw new Error('endTurn needs an event that ends the turn (the turnLeadsTo guard).');
      writeTurnEnd(plan, context, enqueue);
      // The decided speaker is announced here, where `selecting`'s transitions to a turn announce it (`announceDecision`).
      if (speaksNext(plan.target)) announceDecision(plan.next, (event) => enqueue.emit(event));
    }),
    /** An abort during an agent's or a nested chat's turn keeps what the speaker produced so far, as a partial turn. */
    recordPartialTurn: enqueueActions(({ context, enqueue }) => {
      const turn = partialTurn(context, speakingResident(context));
      if (turn === undefined) return;
      enqueue.assign(turn.update);
      const { rounds, lastSpeaker } = turn.update;
      enqueue.emit({
        type: 'turn.finished',
        chatId: context.run.chatId,
        round: rounds,
        speaker: lastSpeaker,
        messages: turn.messages,
        partial: true,
      });
    }),
    endAborted: assign({ reason: 'aborted' as const }),
    /**
     * A resident manager's next run: the per-run context from its input (a
     * new shared state), with the resident agents and participants the
     * previous run left idle.
     */
    beginRun: assign(({ context, event, self }) => {
      if (event.type !== 'run') return {};
      const { input } = event;
      return initialManagerContext(input, SharedStateSlot.lazy(self, input.sharedState, SHARED_STATE_SYSTEM_ID), context.run);
    }),
    /**
     * The end of a resident manager's run: its output goes out (`RUN_ENDED`).
     * What the run spawned is stopped, as a standalone run's end stops its
     * children, except its resident agents that are idle (between turns) and
     * its resident participants, which the next run takes over. An agent
     * stopped in the middle of a turn (the run was aborted, or ended while it
     * waited for approval) is stopped.
     */
    endRun: enqueueActions(({ context, self, enqueue }) => {
      const { agents, participants } = context.run;
      const kept = new Set<AnyActorRef>();
      for (const [name, { actor }] of agents) {
        if (isIdleAgent(actor)) kept.add(actor);
        else agents.delete(name);
      }
      const { children } = self.getSnapshot() as { children: Record<string, AnyActorRef | undefined> };
      for (const name of participants) {
        const actor = children[participantChildId(name)];
        if (actor !== undefined) kept.add(actor);
        else participants.delete(name);
      }
      for (const child of Object.values(children)) if (child !== undefined && !kept.has(child)) enqueue.stopChild(child);
      enqueue.emit({ type: RUN_ENDED, output: managerOutput(context) } as unknown as ChatEvent);
    }),
    /** The run's end: `chat.finished`, and the shared-state actor the run made on first use is stopped, as XState stops the children it spawned. */
    announceEnd: enqueueActions(({ context, enqueue, self }) => {
      const finished: ChatEvent = {
        type: 'chat.finished',
        chatId: context.run.chatId,
        reason: context.reason ?? 'aborted',
        rounds: context.rounds,
        lastSpeaker: context.lastSpeaker,
      };
      if (context.error !== undefined) finished.error = context.error;
      enqueue.emit(finished);
      const ownState = context.run.sharedState.ownActor(self);
      if (ownState !== undefined) enqueue.stopChild(ownState);
    }),
  },
}).createMachine({
  id: 'groupChat',
  // The chat's shared state is made when first needed (`SharedStateSlot`).
  context: ({ input, self }) => initialManagerContext(input, SharedStateSlot.lazy(self, input.sharedState, SHARED_STATE_SYSTEM_ID)),
  on: { abort: { target: '.terminated', actions: 'endAborted' } },
  initial: 'idle',
  states: {
    idle: {
      on: {
        run: { actions: 'beginRun' },
        start: [
          // A resumed chat goes on in the speaking state its persisted turn names (`TurnResume.into`).
          { guard: { type: 'resumesInto', params: { state: 'routing' } }, target: 'speaking', actions: ['announceStart', 'resumeTurn'] },
          { guard: { type: 'resumesInto', params: { state: 'agent' } }, target: 'speaking.agent', actions: ['announceStart', 'resumeTurn'] },
          { guard: { type: 'resumesInto', params: { state: 'chat' } }, target: 'speaking.chat', actions: ['announceStart', 'resumeTurn'] },
          { guard: { type: 'resumesInto', params: { state: 'custom' } }, target: 'speaking.custom', actions: ['announceStart', 'resumeTurn'] },
          { target: 'selecting', actions: 'announceStart' },
        ],
      },
    },
    selecting: {
      entry: 'decide',
      always: nextTransitions((to) => ({ type: 'decidedNext' as const, params: { to } })),
    },
    awaitingChoice: {
      entry: 'requestChoice',
      on: {
        'speaker.chosen': [
          { guard: 'choseTerminate', target: 'terminated', actions: 'endBySelector' },
          { guard: 'choseEligible', target: 'speaking', actions: 'acceptChoice' },
        ],
      },
    },
    askingModel: {
      invoke: {
        src: 'askSelector',
        input: ({ context }) => {
          const { runtime } = context;
          if (runtime.selection.method !== 'auto') throw new Error('askingModel needs the auto selection method');
          return {
            model: runtime.selection.model,
            request: buildSelectorRequest({
              participants: [...runtime.members.values()].map(({ name, description }) => ({ name, description })),
              eligible: context.selection.eligible,
              transcript: viewFor(undefined, context.messages, context.turns, 'broadcast'),
              rejected: context.selection.rejected,
              instructions: runtime.selection.instructions,
            }),
          };
        },
        onDone: [
          {
            guard: { type: 'answerEligible', params: ({ event }) => ({ answer: event.output }) },
            target: 'speaking',
            actions: { type: 'acceptAnswer', params: ({ event }) => ({ answer: event.output }) },
          },
          {
            guard: 'retriesLeft',
            target: 'askingModel',
            reenter: true,
            actions: { type: 'rejectAnswer', params: ({ event }) => ({ answer: event.output }) },
          },
          {
            target: 'speaking',
            actions: [
              { type: 'rejectAnswer', params: ({ event }) => ({ answer: event.output }) },
              { type: 'fallBack', params: { failure: undefined } },
            ],
          },
        ],
        onError: { target: 'speaking', actions: { type: 'fallBack', params: ({ event }) => ({ failure: { error: event.error } }) } },
      },
    },
    speaking: {
      initial: 'routing',
      states: {
        routing: {
          always: [
            { guard: 'chatEnds', target: '#groupChat.terminated' },
            { guard: 'contextConditionHolds', target: 'routing', reenter: true, actions: 'followContextCondition' },
            { guard: 'speakerIsHuman', target: 'human', actions: 'beginHumanTurn' },
            { guard: 'speakerIsChat', target: 'chat', actions: 'beginTurn' },
            { guard: 'speakerIsCustom', target: 'custom', actions: 'beginTurn' },
            { target: 'agent' },
          ],
        },
        agent: {
          entry: 'beginAgentTurn',
          on: {
            abort: { target: '#groupChat.terminated', actions: ['recordPartialTurn', 'endAborted'] },
            'approval.decide': { guard: 'decidedForSpeaker', actions: 'relayApprovalDecision' },
            'agent.turn.done': turnEndTransitions(),
          },
        },
        human: {
          entry: 'waitForHuman',
          on: {
            'human.said': turnEndTransitions(),
          },
        },
        /** A nested chat's turn, taken by its resident participant actor (`participant:<name>`). */
        chat: {
          entry: { type: 'takeDelegatedTurn', params: { kind: 'chat' } },
          exit: 'stopDelegatedTurn',
          on: {
            abort: { target: '#groupChat.terminated', actions: ['recordPartialTurn', 'endAborted'] },
            'participant.turn.done': turnEndTransitions(),
          },
        },
        /** A custom participant's turn: the same delegated turn as a nested chat's, through its own protocol. */
        custom: {
          entry: { type: 'takeDelegatedTurn', params: { kind: 'custom' } },
          exit: 'stopDelegatedTurn',
          on: {
            abort: { target: '#groupChat.terminated', actions: ['recordPartialTurn', 'endAborted'] },
            'participant.turn.done': turnEndTransitions(),
          },
        },
      },
    },
    // A standalone chat's run is over (`ended`); a resident manager's goes back to `idle` for the next run.
    terminated: {
      entry: 'announceEnd',
      always: [{ guard: 'isResident', target: 'idle', actions: 'endRun' }, { target: 'ended' }],
    },
    ended: { type: 'final' },
  },
  output: ({ context }) => managerOutput(context),
});

/**
 * A run's manager context, from its input: the run's parts (`ManagerRun`:
 * its ids, bus, shared state, checkpoints) and the transcript it starts
 * from. The machine's context at creation, and a resident manager's at
 * each new run (`beginRun`). `sharedState`: the slot of the chat's shared
 * state (a resumed chat's, `resumedManagerSnapshot`).
 * `carried`: the resident agents and participants a resident manager's
 * previous run leaves idle, taken over by this run (their bridge pointed at it).
 *
 * @example
 * const context = initialManagerContext(input, SharedStateSlot.lazy(self, input.sharedState, SHARED_STATE_SYSTEM_ID));
 */
export function initialManagerContext(
  input: ManagerInput,
  sharedState: SharedStateSlot,
  carried?: Pick<ManagerRun, 'agents' | 'participants' | 'bridge'>,
): ManagerContext {
  const bridge = carried?.bridge ?? { chatId: input.chatId, publish: input.publish };
  bridge.chatId = input.chatId;
  bridge.publish = input.publish;
  return {
    runtime: input.runtime,
    run: {
      chatId: input.chatId,
      newRunId: input.newRunId ?? newRunId,
      publish: input.publish,
      inspect: input.inspect,
      sharedState,
      tokenBudget: input.tokenBudget,
      checkpoints: input.checkpoints,
      resident: input.resident === true,
      currentTurn: { turn: undefined },
      agents: carried?.agents ?? new Map(),
      participants: carried?.participants ?? new Set(),
      bridge,
    },
    messages: input.messages,
    turns: input.turns,
    rounds: input.rounds ?? input.turns.length,
    lastSpeaker: 'lastSpeaker' in input ? input.lastSpeaker : input.turns.at(-1)?.speaker,
    randomState: input.randomState,
    selection: { eligible: [], decision: undefined, rejected: [] },
    speaker: undefined,
    view: [],
    redirects: 0,
    handoff: undefined,
    reason: undefined,
    error: undefined,
    resumeWaiting: input.resumeWaiting,
    spend: noSpend(),
  };
}

/**
 * A run's result, as the manager outputs it when the run ends.
 *
 * @example
 * const result = managerOutput(snapshot.context); // { chatId, messages, turns, reason, … }
 */
export function managerOutput(context: ManagerContext): GroupChatResult {
  const result: GroupChatResult = {
    chatId: context.run.chatId,
    messages: context.messages,
    turns: context.turns,
    sharedState: stateValues(context),
    lastSpeaker: context.lastSpeaker,
    reason: context.reason ?? 'aborted',
    rounds: context.rounds,
    usage: context.spend.usage,
  };
  if (context.error !== undefined) result.error = context.error;
  if (context.spend.cost !== undefined) result.cost = context.spend.cost;
  return result;
}

/** The turn about to be taken: the last turn is marked as addressed to the speaker, and the speaker's view. */
function turnStart(context: ManagerContext): Pick<ManagerContext, 'turns' | 'view'> {
  const speaker = speakerOf(context);
  const turns = turnsPassedTo(speaker, context.turns);
  return { turns, view: viewFor(speaker, context.messages, turns, context.runtime.views) };
}

/** A decided speaker's announcement: the `handoff` its afterWork made (if any), then `speaker.selected`. */
function announceDecision(context: ManagerContext, emit: (event: ChatEvent) => void): void {
  const { decision } = context.selection;
  if (decision?.kind !== 'speaker') return;
  if (decision.by === 'after-work' && context.lastSpeaker !== undefined) {
    emit({ type: 'handoff', chatId: context.run.chatId, from: context.lastSpeaker, to: decision.speaker, via: 'after-work' });
  }
  emit(selectedEvent(context, decision.speaker, decision.by));
}

function selectedEvent(context: ManagerContext, speaker: string, by: SelectionSource): ChatEvent {
  return { type: 'speaker.selected', chatId: context.run.chatId, round: context.rounds + 1, speaker, by, eligible: context.selection.eligible };
}

/**
 * The end of the speaker's turn that `event` makes, planned (`turnEndPlan`):
 * an agent's result, a person's words, a delegated participant's outcome,
 * from the speaker taking the turn; none for another event.
 */
function turnEnd(context: ManagerContext, event: ManagerEvent): TurnEndPlan | undefined {
  const speaker = context.speaker;
  if (speaker === undefined) return undefined;
  switch (event.type) {
    case 'agent.turn.done':
      return turnEndPlan(context, event, speaker, () => agentTurnOutcome(context, event.output));
    case 'human.said':
      if (event.speaker !== speaker) return undefined;
      return turnEndPlan(context, event, speaker, () => ({ messages: [{ role: 'user' as const, name: event.speaker, content: event.text }] }));
    case 'participant.turn.done':
      if (event.speaker !== speaker) return undefined;
      return turnEndPlan(context, event, speaker, () => event.outcome);
    default:
      return undefined;
  }
}

function memberKind(context: ManagerContext): string | undefined {
  return context.speaker === undefined ? undefined : context.runtime.members.get(context.speaker)?.kind;
}

/** An agent's turn: what its run added to its view, the handoff tool it called, its failure. */
function agentTurnOutcome(context: ManagerContext, result: RunResult): TurnOutcome {
  const { handoffTools } = speakingMember(context, 'agent');
  const handoffCall = result.toolCalls.find((record) => !record.isError && handoffTools.has(record.call.name));
  return {
    messages: result.messages.slice(context.view.length),
    handoff: handoffCall === undefined ? undefined : handoffTools.get(handoffCall.call.name),
    error: result.stopReason === 'error' ? result.error : undefined,
    usage: result.usage,
    cost: result.cost,
  };
}

/**
 * The input of a nested chat's or a custom participant's turn: the member's
 * protocol, the speaker's view, the persisted wait inside it when the chat
 * resumes in that turn, and where the run's handle finds the turn.
 */
function delegatedTurnInput(context: ManagerContext, kind: 'chat' | 'custom'): DelegatedTurnInput {
  const { delegate, name: speaker } = speakingMember(context, kind);
  const { chatId, publish, inspect, currentTurn } = context.run;
  const waiting = context.resumeWaiting;
  return {
    participant: delegate,
    view: context.view,
    resume: waiting?.into === kind ? waiting.turn : undefined,
    context: {
      inspect,
      forward: (event: ChatEvent) => publish({ type: 'nested.event', chatId, speaker, event }),
      maxTokens: nestedMaxTokens(context),
      store: context.run.checkpoints?.delegatedTurn(speaker),
    },
    current: currentTurn,
  };
}

/** The event a resident manager emits when a run ends: the output a standalone run would have. (Not a chat event: never on `events$`.) */
export const RUN_ENDED = 'xstate.agentchart.run.ended';

/** What a resident manager emits at the end of each run. */
export interface RunEndedEvent {
  type: typeof RUN_ENDED;
  output: GroupChatResult;
}

/** Whether a resident agent is between turns (its `idle` state). */
function isIdleAgent(actor: AnyActorRef): boolean {
  const snapshot = actor.getSnapshot() as { status: string; value?: unknown };
  return snapshot.status === 'active' && snapshot.value === 'idle';
}
