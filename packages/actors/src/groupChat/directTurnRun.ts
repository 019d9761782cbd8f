import type { Message } from '@agentchart/core';
import type { AgentRuntime } from '../agent/machine/agentRuntime.js';
import type { RunResult } from '../agent/run/runResult.js';
import type { AgentTurnSetup } from './chatMembers.js';
import { turnRuntime } from './chatTokenBudget.js';
import { DirectAgentTurn } from './directAgentTurn.js';
import { type DirectHandOver, contextAfterHandOver, directHandOver } from './directHandOver.js';
import { type ManagerContext, type ManagerRun, speakerOf } from './managerContext.js';
import { type TurnOutcome, announceTurn } from './reviewTurn.js';

/** What a run of direct turns needs of the manager actor it works for. */
export interface DirectTurnManager {
  getSnapshot(): { context: ManagerContext };
  send(event: { type: 'direct.turn.done'; output: RunResult } | { type: 'abort' }): void;
}

/**
 * Starts the manager's direct agent turn once the macrostep that began it
 * is done: an actor's snapshot observers run after its deferred effects (its
 * emitted events, the children it spawned starting), so the turn's
 * `run.started` follows the manager's `speaker.selected` as a spawned agent
 * actor's does, and an abort sent from a listener of those events finds the
 * turn started, as it would find the actor.
 *
 * @example
 * startDirectTurns(managerActor);
 */
export function startDirectTurns(manager: {
  subscribe(observer: { next: (snapshot: { context: { run: { directTurn: DirectTurnRun } } }) => void; error: () => void }): unknown;
}): void {
  manager.subscribe({
    next: (snapshot) => snapshot.context.run.directTurn.startFromManager(),
    // The run's handle reports the manager's failure.
    error: () => {},
  });
}

/**
 * The direct agent turns of one chat run (docs/performance.md, "Runs of
 * direct turns"), kept in the manager's `run.directTurn`. The manager begins
 * a direct turn (`begin`, from `beginAgentTurn`) and its snapshot observer
 * starts it (`startFromManager`). When a direct turn ends and the next
 * speaker takes one too (`directHandOver`), this run records the turn,
 * decides, announces and starts the next turn itself, with the manager's
 * own functions and events in the manager's order, and the manager takes no
 * macrostep: it stays in `speaking.agent`. The context the run moved on is
 * `contextNow`; the manager takes it over (`catchUp`) with the event that
 * ends the run — `direct.turn.done` when the next speaker is not a direct
 * one or the chat ends, or `abort`. Whatever reads the manager's context
 * meanwhile (an abort's partial turn, a nested chat's transcript so far)
 * reads `contextNow`.
 *
 * An abort sent while a hand-over announces and starts the next turn (a
 * listener of `turn.finished`, `speaker.selected` or `run.started`) waits
 * until that turn has started, as it waits in the manager's mailbox while
 * the manager announces a turn and its observer starts it.
 *
 * @example
 * const turns = new DirectTurnRun(managerActor, agentTurnOutcome); // in the manager's context
 * turns.begin(context.run, 'writer', setup, runtime, view); // `startDirectTurns` starts it
 */
export class DirectTurnRun {
  /** The direct turn taken now (begun, maybe not started yet). */
  current: DirectAgentTurn | undefined;
  /** The turn the manager began, until its snapshot observer starts it (a turn a hand-over begins, the hand-over starts). */
  #begunByManager: DirectAgentTurn | undefined;
  readonly #manager: DirectTurnManager;
  readonly #outcomeOf: (context: ManagerContext, result: RunResult) => TurnOutcome;
  /** The turn stopped when the manager last left `speaking.agent`: an abort reads its partial turn after that exit. */
  #stopped: DirectAgentTurn | undefined;
  /** The manager's context as this run moved it on, from the run's first hand-over until the manager catches up. */
  #now: ManagerContext | undefined;
  /** Set while the manager's snapshot observer starts a turn: a turn that ends right away waits in the manager's mailbox. */
  #startedByManager = false;
  /** Set while a hand-over announces and starts the next turn: an abort is held until that turn has started. */
  #holdingAborts = false;
  #abortHeld = false;
  /** Set while hand-overs are under way; a turn that ends meanwhile (a model that answers at once) waits in `#ended`. */
  #handingOver = false;
  #ended: { turn: DirectAgentTurn; result: RunResult } | undefined;

  /** `outcomeOf` is how the manager reads an agent's turn from its run result. */
  constructor(manager: DirectTurnManager, outcomeOf: (context: ManagerContext, result: RunResult) => TurnOutcome) {
    this.#manager = manager;
    this.#outcomeOf = outcomeOf;
  }

  /**
   * The manager begins `speaker`'s direct turn, shown `view`: created, not
   * started (the manager's snapshot observer starts it, `startFromManager`).
   */
  begin(run: ManagerRun, speaker: string, setup: AgentTurnSetup, runtime: AgentRuntime, view: Message[]): void {
    this.#begin(run, speaker, setup, runtime, view);
    this.#begunByManager = this.current;
  }

  #begin(run: ManagerRun, speaker: string, setup: AgentTurnSetup, runtime: AgentRuntime, view: Message[]): void {
    const { chatId, publish, sharedState, newRunId } = run;
    const turn: DirectAgentTurn = new DirectAgentTurn(
      { runtime, runId: newRunId(), messages: view, toolMode: setup.toolMode, state: { slot: sharedState } },
      {
        emit: (event) => publish({ type: 'agent.event', chatId, speaker, event }),
        done: (result) => this.#turnEnded(turn, result),
      },
    );
    this.current = turn;
    this.#stopped = undefined;
  }

  /** Starts the turn the manager began, once its macrostep is done (`startDirectTurns`). */
  startFromManager(): void {
    const turn = this.#begunByManager;
    if (turn === undefined) return;
    this.#begunByManager = undefined;
    if (turn !== this.current) return;
    this.#startedByManager = true;
    try {
      turn.start();
    } finally {
      this.#startedByManager = false;
    }
  }

  /** The manager left `speaking.agent`: the turn taken now is stopped (an abort) or was done; it stays readable by `stoppedTurn`. */
  stop(): void {
    this.#stopped = this.current;
    this.current?.stop();
    this.current = undefined;
    this.#begunByManager = undefined;
    this.#ended = undefined;
  }

  /** The turn the manager's exit from `speaking.agent` stopped, for the partial turn of the abort that left it. */
  stoppedTurn(): DirectAgentTurn | undefined {
    return this.#stopped;
  }

  /** The manager's context as it stands: `context` (the manager's own), unless this run moved it on. */
  contextNow(context: ManagerContext): ManagerContext {
    return this.#now ?? context;
  }

  /** What the manager assigns when it takes the run's context over (an empty update when it is current). */
  catchUp(): Partial<ManagerContext> {
    const now = this.#now;
    this.#now = undefined;
    return now ?? {};
  }

  /** Whether an abort now must wait for the turn being announced to start (`holdAbort`). */
  holdsAborts(): boolean {
    return this.#holdingAborts;
  }

  /** An abort arrived while a hand-over announces the next turn: it is sent again once that turn has started. */
  holdAbort(): void {
    this.#abortHeld = true;
  }

  #turnEnded(turn: DirectAgentTurn, result: RunResult): void {
    if (turn !== this.current) return;
    if (this.#startedByManager) {
      // Ended while the manager is still in its macrostep: the manager takes the long way, after what its mailbox holds.
      this.#manager.send({ type: 'direct.turn.done', output: result });
      return;
    }
    this.#ended = { turn, result };
    if (this.#handingOver) return;
    this.#handingOver = true;
    try {
      while (this.#ended !== undefined) {
        const ended = this.#ended;
        this.#ended = undefined;
        if (ended.turn === this.current) this.#handOver(ended.result);
      }
    } finally {
      this.#handingOver = false;
    }
  }

  /** The turn taken now ended with `result`: the next direct turn begins here, or the manager takes over. */
  #handOver(result: RunResult): void {
    const context = this.#now ?? this.#manager.getSnapshot().context;
    let plan: DirectHandOver | undefined;
    let after: ManagerContext | undefined;
    try {
      plan = directHandOver(context, result, this.#outcomeOf);
      after = plan === undefined ? undefined : contextAfterHandOver(plan);
    } catch {
      // A bug in deciding: the manager decides again the long way, and its actor fails with the error (the run reports it).
      plan = undefined;
    }
    if (plan === undefined || after === undefined) {
      // The run ends: the manager catches up (`catchUp`) and records the turn.
      this.#manager.send({ type: 'direct.turn.done', output: result });
      return;
    }
    this.#now = after;
    const next = plan.decision.speaker;
    this.#begin(after.run, next, plan.turn, turnRuntime(plan.turn.runtime(false), after), after.view);
    // Until the next turn has started, an abort waits (as in the manager's mailbox while it announced and started a turn).
    this.#holdingAborts = true;
    try {
      this.#announce(context, plan);
      this.current?.start();
    } finally {
      this.#holdingAborts = false;
    }
    if (this.#abortHeld) {
      this.#abortHeld = false;
      this.#manager.send({ type: 'abort' });
    }
  }

  /** The manager's events for the hand-over, in the order `recordTurn` and `announceDecision` emit them. */
  #announce(before: ManagerContext, plan: DirectHandOver): void {
    const { review, outcome, eligible, decision } = plan;
    const { chatId, publish } = before.run;
    const speaker = speakerOf(before);
    const next = decision.speaker;
    announceTurn(publish, chatId, speaker, review, outcome);
    if (decision.by === 'after-work') publish({ type: 'handoff', chatId, from: speaker, to: next, via: 'after-work' });
    publish({ type: 'speaker.selected', chatId, round: review.update.rounds + 1, speaker: next, by: decision.by, eligible });
  }
}
