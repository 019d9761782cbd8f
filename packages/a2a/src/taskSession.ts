import { type Message, type Part, type TaskStatus, TaskState } from '@a2a-js/sdk';
import { AgentEvent, type ExecutionEventBus } from '@a2a-js/sdk/server';
import type { Subscription } from 'rxjs';
import { a2aMessage, dataPart, textPart } from './a2aParts.js';
import { ANSWER_ARTIFACT_ID } from './constants.js';
import type { ServedRun, TaskOutcome, TaskWait } from './servedRun.js';

/**
 * One A2A task over one served run: publishes the run's progress as
 * `working` status updates on the bus of the request that is listening, a
 * wait as `input-required`, and the end as the answer artifact and the final
 * status. Each request that gives the task something to do attaches its bus
 * and is answered when the task next waits or ends.
 */
export class TaskSession {
  #bus: ExecutionEventBus | undefined;
  #settle: (() => void) | undefined;
  #lastWait = '';
  #check: ReturnType<typeof setImmediate> | undefined;
  readonly #subscription: Subscription;
  /** Resolves once the end was published. */
  readonly ended: Promise<void>;

  /** Starts listening to `run`, on `bus` (see `attach` for the next requests). */
  constructor(
    readonly taskId: string,
    readonly contextId: string,
    readonly run: ServedRun,
    bus: ExecutionEventBus,
  ) {
    this.#bus = bus;
    this.#subscription = run.events$.subscribe({
      next: (event) => {
        const progress = run.progressOf(event);
        if (progress !== undefined) this.#status(TaskState.TASK_STATE_WORKING, [textPart(progress.text), dataPart(progress.data)]);
        this.#scheduleWaitCheck();
      },
    });
    this.ended = run.outcome.then(
      (outcome) => this.#end(outcome),
      (error: unknown) => this.#end({ state: 'failed', text: error instanceof Error ? error.message : String(error) }),
    );
  }

  /** Listens on `bus` from now on; resolves when the task next waits for input or ends. */
  attach(bus: ExecutionEventBus): Promise<void> {
    this.#settle?.();
    this.#bus = bus;
    this.#lastWait = '';
    return new Promise<void>((resolve) => {
      this.#settle = resolve;
    });
  }

  /**
   * Says what was wrong with an answer: a waiting task is input-required
   * again, with the problem and the same wait; a working one stays working
   * (the request is answered when it next waits or ends).
   */
  refuse(problem: string): void {
    const wait = this.run.waiting();
    if (wait === undefined) {
      this.#status(TaskState.TASK_STATE_WORKING, [textPart(problem)]);
      return;
    }
    this.#status(TaskState.TASK_STATE_INPUT_REQUIRED, [textPart(problem), ...waitParts(wait)]);
    this.#lastWait = JSON.stringify(wait);
    this.#pause();
  }

  /** Aborts the run (its running tools too); resolves once the canceled status was published on `bus`. */
  async cancel(bus: ExecutionEventBus): Promise<void> {
    this.#bus = bus;
    this.run.abort();
    await this.ended;
  }

  #scheduleWaitCheck(): void {
    if (this.#check !== undefined) return;
    this.#check = setImmediate(() => {
      this.#check = undefined;
      const wait = this.run.waiting();
      if (wait === undefined) return;
      const key = JSON.stringify(wait);
      if (key === this.#lastWait) return;
      this.#lastWait = key;
      this.#status(TaskState.TASK_STATE_INPUT_REQUIRED, waitParts(wait));
      this.#pause();
    });
  }

  #end(outcome: TaskOutcome): void {
    if (this.#check !== undefined) clearImmediate(this.#check);
    this.#subscription.unsubscribe();
    const bus = this.#bus;
    if (bus !== undefined) {
      if (outcome.state === 'completed') {
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId: this.taskId,
            contextId: this.contextId,
            artifact: {
              artifactId: ANSWER_ARTIFACT_ID,
              name: 'answer',
              description: 'The final answer.',
              parts: [textPart(outcome.text)],
              metadata: undefined,
              extensions: [],
            },
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
      }
      this.#status(FINAL_STATES[outcome.state], [textPart(outcome.text)]);
      bus.finished();
    }
    this.#pause();
  }

  #status(state: TaskState, parts: Part[]): void {
    this.#bus?.publish(
      AgentEvent.statusUpdate({ taskId: this.taskId, contextId: this.contextId, status: this.statusOf(state, parts), metadata: undefined }),
    );
  }

  /** A status of this task. */
  statusOf(state: TaskState, parts: Part[]): TaskStatus {
    const message: Message = a2aMessage('agent', parts, { taskId: this.taskId, contextId: this.contextId });
    return { state, message, timestamp: new Date().toISOString() };
  }

  #pause(): void {
    const settle = this.#settle;
    this.#settle = undefined;
    settle?.();
  }
}

const FINAL_STATES = {
  completed: TaskState.TASK_STATE_COMPLETED,
  failed: TaskState.TASK_STATE_FAILED,
  canceled: TaskState.TASK_STATE_CANCELED,
} as const;

/** The parts of an input-required status: the wait as data, and a line for people. */
export function waitParts(wait: TaskWait): Part[] {
  if (wait.kind === 'approval') {
    const names = wait.pending.map((call) => `${call.toolName} (${call.callId})`).join(', ');
    return [
      textPart(
        `Waiting for approval: ${names}. Answer with one data part per call: { "approve": "<callId>" } or { "reject": "<callId>", "reason": "…" }.`,
      ),
      dataPart({ pending: wait.pending.map((call) => ({ callId: call.callId, toolName: call.toolName, arguments: call.arguments })) }),
    ];
  }
  if (wait.kind === 'human') return [textPart(`Waiting for ${wait.speaker}'s turn: answer with a text part.`), dataPart({ speaker: wait.speaker })];
  return [
    textPart(`Waiting for the choice of the next speaker: answer with a text part naming one of ${wait.eligible.join(', ')}.`),
    dataPart({ eligible: [...wait.eligible] }),
  ];
}
