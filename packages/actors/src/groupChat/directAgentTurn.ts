import type { ErrorInfo, ModelEvent, RunEvent } from '@agentchart/core';
import { toErrorInfo } from '@agentchart/core/internal';
import type { Subscription } from 'rxjs';
import type { AnyEventObject } from 'xstate';
import type { AgentContext } from '../agent/machine/agentContext.js';
import { type AgentMachineInput, initialAgentContext } from '../agent/machine/agentMachine.js';
import { type AgentStep, type StepOutput, agentSteps } from '../agent/machine/agentSteps.js';
import { type StepDoneEvent, batchRunsWithoutDecision, stepContinues } from '../agent/machine/fusedStep.js';
import { FusedStepRun } from '../agent/machine/fusedStepRun.js';
import { type CallModelCommand, type ModelReply, addToReply } from '../agent/machine/modelCallerActor.js';
import { tokenBudgetSpent } from '../agent/machine/runTokenBudget.js';
import { type RunResult, toRunResult } from '../agent/run/runResult.js';
import type { SharedStateRef } from '../sharedState/sharedStateMachine.js';

/**
 * An agent's chat turn without an actor (docs/performance.md, "Chat turns
 * without an agent actor"). A turn whose every step is one the agent machine
 * takes without a decision — the agent has no tools, no addable tools, no
 * tool rules and no tool-call limit, and nobody inspects the chat nor keeps it
 * in a store — runs the agent machine's own step functions (`agentSteps`) on
 * a plain context here, in the order the machine's transitions run them, and
 * hands the run's result to the chat's run of direct turns (`DirectTurnRun`).
 * Creating, starting and stopping the agent actor with its model caller and
 * tool runner was most of a turn's CPU.
 * The run events are the machine's, emitted as they happen, in its order.
 *
 * A reply that calls tools anyway (a model naming tools it was not offered)
 * takes the fused step as the model caller would (`FusedStepRun`): every
 * call is answered with the unknown-tool error, and the loop goes on under
 * the agent's limits as `stepDone` decides.
 *
 * Keep in step with `agentMachine` (its context factory, `thinking`,
 * `stepDone` and the final states).
 */
export class DirectAgentTurn {
  #context: AgentContext;
  /** Whether `#context` may be held elsewhere (a snapshot reader, a model call's fused step): the next assign copies it first. */
  #shared = false;
  readonly #emit: (event: RunEvent) => void;
  readonly #done: (result: RunResult) => void;
  readonly #output: StepOutput;
  #subscription: Subscription | undefined;
  #fused: FusedStepRun | undefined;
  #toolController: AbortController | undefined;
  #phase: 'idle' | 'running' | 'finished' | 'stopped' = 'idle';

  /**
   * `io.emit` gets every run event as it happens; `io.done` the run's result
   * once it ends (not after `stop`).
   */
  constructor(
    input: AgentMachineInput & { state: { ref: SharedStateRef } },
    io: { emit: (event: RunEvent) => void; done: (result: RunResult) => void },
  ) {
    // A run in a chat: the chat's shared state, no rules (a direct turn is taken only without them).
    this.#context = initialAgentContext(input, input.state.ref);
    this.#emit = io.emit;
    this.#done = io.done;
    this.#output = {
      assign: (patch) => {
        if (this.#shared) {
          this.#context = { ...this.#context };
          this.#shared = false;
        }
        const context = this.#context as unknown as Record<string, unknown>;
        for (const key in patch) context[key] = patch[key as keyof AgentContext];
      },
      emit: (event) => this.#emit(event),
      sendTo: (childId, command) => {
        if (childId !== 'model' || command.type !== 'model.call') {
          throw new Error(`A direct agent turn runs only steps that call the model, not "${command.type}" to ${childId}.`);
        }
        this.#callModel(command as CallModelCommand);
      },
    };
  }

  /** The run as the agent actor's snapshot would show it (for a partial turn: `partialTurn` reads `context`). */
  getSnapshot(): { context: AgentContext } {
    this.#shared = true;
    return { context: this.#context };
  }

  /** Starts the run: `run.started`, then the first model call (the machine's entry and `start`). */
  start(): void {
    if (this.#phase !== 'idle') return;
    this.#phase = 'running';
    const context = this.#context;
    this.#emit({ type: 'run.started', runId: context.runId, agent: context.runtime.agentName, input: context.messages });
    this.#run(agentSteps.startStep);
  }

  /** Stops the run where it is (the chat ended the turn): the model call is unsubscribed, running calls aborted; no more events. */
  stop(): void {
    if (this.#phase === 'idle') this.#phase = 'stopped';
    if (this.#phase !== 'running') return;
    this.#phase = 'stopped';
    this.#subscription?.unsubscribe();
    this.#fused?.stop();
  }

  #run(...steps: AgentStep[]): void {
    const event = { type: 'start' } as const;
    for (const step of steps) step(this.#context, event, this.#output);
  }

  /** What the model caller does with a `model.call` command, with the reply taken here. */
  #callModel(command: CallModelCommand): void {
    const { fuse } = command;
    this.#shared = true;
    if (fuse !== undefined) this.#emit(fuse.announce);
    const reply: ModelReply = { text: '', reasoning: '', toolCalls: [] };
    const { runId, runtime, step } = this.#context;
    const agent = runtime.agentName;
    this.#subscription = command.model.stream(command.request).subscribe({
      next: (event: ModelEvent) => {
        if (this.#phase !== 'running') return;
        addToReply(reply, event);
        if (event.type === 'text-delta') this.#emit({ type: 'text.delta', runId, agent, step, text: event.text });
        else if (event.type === 'reasoning-delta') this.#emit({ type: 'reasoning.delta', runId, agent, step, text: event.text });
        else if (event.type === 'malformed-reply')
          this.#emit({ type: 'model.malformed', runId, agent, step, reason: event.reason, message: event.message });
      },
      error: (error: unknown) => {
        if (this.#phase !== 'running') return;
        // `failed`: the error, then `run.finished`.
        this.#finish('error', toErrorInfo(error));
      },
      complete: () => {
        if (this.#phase !== 'running') return;
        this.#takeReply(reply, fuse);
      },
    });
  }

  /** The `thinking` state's `model.reply` transitions, in their order. */
  #takeReply(reply: ModelReply, fuse: CallModelCommand['fuse']): void {
    const event = { type: 'model.reply' as const, reply };
    const steps = (...list: AgentStep[]) => {
      for (const step of list) step(this.#context, event, this.#output);
    };
    const { finalCall } = this.#context;
    if (finalCall !== undefined) {
      steps(agentSteps.takeReply, agentSteps.appendReply, agentSteps.answerFinalReply);
      this.#finish(finalCall);
      return;
    }
    if (reply.toolCalls.length === 0) {
      steps(agentSteps.takeReply, agentSteps.appendReply, agentSteps.endRules);
      this.#finish('completed');
      return;
    }
    if (fuse === undefined || !batchRunsWithoutDecision(fuse.context, reply.toolCalls)) {
      // Eligibility (`directTurnEligible`) rules this out: every call of a run without tools, approvals or limits runs.
      this.#finish('error', { name: 'Error', message: 'A direct agent turn got a reply whose tool calls need a decision.' });
      return;
    }
    this.#fused = new FusedStepRun(fuse.context, fuse.step, {
      emit: (runEvent) => this.#emit(runEvent),
      sendBack: (done) => this.#stepDone(done),
      controller: () => {
        this.#toolController ??= new AbortController();
        return this.#toolController;
      },
    });
    this.#fused.start(reply);
  }

  /** A fused step is done: `takeFusedStep`, then `stepDone`'s choices, in their order. */
  #stepDone(event: AnyEventObject): void {
    if (!isStepDone(event) || this.#phase !== 'running') return;
    const { patch } = event;
    const continues = stepContinues(this.#context, patch);
    this.#output.assign(patch);
    this.#fused = undefined;
    const context = this.#context;
    const { runtime } = context;
    if (!continues) {
      if (context.endedBy !== undefined) this.#finish('ended-by-middleware');
      else if (tokenBudgetSpent(context)) this.#finish('token-budget');
      else if (context.step >= runtime.maxSteps) this.#finish('max-steps');
      else if (context.toolCallCount >= runtime.maxToolCalls) this.#output.assign({ finalCall: 'max-tool-calls' });
      else if (context.consecutiveErrorBatches >= runtime.maxConsecutiveErrors) this.#output.assign({ finalCall: 'max-consecutive-errors' });
      if (this.#phase !== 'running') return;
    }
    this.#run(agentSteps.startStep);
  }

  /** A final state's `finish`: the stop reason, `run.finished`, and the result to the chat. */
  #finish(reason: NonNullable<AgentContext['stopReason']>, error?: ErrorInfo): void {
    this.#phase = 'finished';
    this.#output.assign({ stopReason: reason, error });
    const context = this.#context;
    const finished: RunEvent = { type: 'run.finished', runId: context.runId, agent: context.runtime.agentName, reason };
    if (error) finished.error = error;
    this.#emit(finished);
    this.#done(toRunResult(this.#context));
  }
}

const isStepDone = (event: AnyEventObject): event is StepDoneEvent => event.type === 'step.done';
