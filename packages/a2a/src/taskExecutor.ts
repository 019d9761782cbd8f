import { type Task, TaskState } from '@a2a-js/sdk';
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from '@a2a-js/sdk/server';
import { a2aMessage, textOfParts, textPart } from './a2aParts.js';
import type { A2aTarget } from './servedA2aTargets.js';
import { type ServedStore, resumeServedRun, startServedRun } from './startServedRun.js';
import { answerTask } from './taskAnswer.js';
import { TaskSession } from './taskSession.js';

/**
 * The A2A executor of one served agent or chat: a new task starts a run (the
 * task's id is the run's), a message in a waiting task answers its wait (a
 * task of the store that no session holds is resumed from the store first),
 * and a cancel aborts the run.
 */
export class TaskExecutor implements AgentExecutor {
  readonly #sessions = new Map<string, TaskSession>();

  constructor(
    private readonly target: A2aTarget,
    private readonly kept: ServedStore | undefined,
  ) {}

  execute = async (context: RequestContext, bus: ExecutionEventBus): Promise<void> => {
    const { taskId, contextId, userMessage } = context;
    if (context.task === undefined) {
      bus.publish(AgentEvent.task(newTask(taskId, contextId, context)));
      const input = textOfParts(userMessage.parts);
      const opened = await this.#open(taskId, contextId, bus, () => startServedRun(this.target, taskId, input, this.kept));
      await opened?.settled;
      return;
    }
    bus.publish(
      AgentEvent.task({
        ...context.task,
        contextId,
        status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: new Date().toISOString() },
      }),
    );
    const live = this.#sessions.get(taskId);
    const opened =
      live === undefined ? await this.#open(taskId, contextId, bus, () => this.#resume(taskId)) : { session: live, settled: live.attach(bus) };
    if (opened === undefined) return;
    const { session, settled } = opened;
    const problem = answerTask(session.run, session.run.waiting(), userMessage);
    if (problem !== undefined) session.refuse(problem);
    await settled;
  };

  cancelTask = async (taskId: string, bus: ExecutionEventBus): Promise<void> => {
    const session =
      this.#sessions.get(taskId) ?? (this.kept === undefined ? undefined : (await this.#open(taskId, '', bus, () => this.#resume(taskId)))?.session);
    if (session === undefined) return;
    await session.cancel(bus);
  };

  /** Aborts every live run (the server is closing without a store: nothing could continue them). */
  abortAll(): void {
    for (const session of this.#sessions.values()) session.run.abort();
  }

  async #resume(taskId: string) {
    if (this.kept === undefined) throw new Error(`Task ${taskId} has no live run on this server and no store to continue it from.`);
    return resumeServedRun(this.target, taskId, this.kept);
  }

  /**
   * Starts (or resumes) the run of a task, listening on `bus` from its first
   * event; `settled` resolves when it next waits or ends. A failure to start
   * is the task's failed status.
   */
  async #open(
    taskId: string,
    contextId: string,
    bus: ExecutionEventBus,
    open: () => Promise<TaskSession['run']>,
  ): Promise<{ session: TaskSession; settled: Promise<void> } | undefined> {
    let run: TaskSession['run'];
    try {
      run = await open();
    } catch (error) {
      const text = `The ${this.target.kind} "${this.target.name}" could not take the task: ${error instanceof Error ? error.message : String(error)}`;
      bus.publish(
        AgentEvent.statusUpdate({
          taskId,
          contextId,
          status: {
            state: TaskState.TASK_STATE_FAILED,
            message: a2aMessage('agent', [textPart(text)], { taskId, contextId }),
            timestamp: new Date().toISOString(),
          },
          metadata: undefined,
        }),
      );
      bus.finished();
      return undefined;
    }
    const session = new TaskSession(taskId, contextId, run, bus);
    const settled = session.attach(bus);
    this.#sessions.set(taskId, session);
    void session.ended.then(() => this.#sessions.delete(taskId));
    return { session, settled };
  }
}

function newTask(taskId: string, contextId: string, context: RequestContext): Task {
  return {
    id: taskId,
    contextId,
    status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
    artifacts: [],
    history: [context.userMessage],
    metadata: undefined,
  };
}
