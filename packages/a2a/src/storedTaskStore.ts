import { type Task, TaskState } from '@a2a-js/sdk';
import { InMemoryTaskStore, type ServerCallContext, type TaskStore } from '@a2a-js/sdk/server';
import type { RunStore, StoredRun } from '@agentchart/core';
import { a2aMessage, textPart } from './a2aParts.js';
import type { A2aTarget } from './servedA2aTargets.js';
import type { PendingCall, TaskWait } from './servedRun.js';
import { waitParts } from './taskSession.js';

/**
 * The tasks of one served target. Tasks this server has seen are kept as the
 * SDK keeps them; a task it has not (the server restarted) is read from the
 * store: the run or chat with the task's id, of this target, as a task in the
 * state the store says (waiting → input-required with what it waits for,
 * running → working, finished → completed). The A2A context id is not in the
 * store: such a task has an empty `contextId` until its next message.
 */
export class StoredTaskStore implements TaskStore {
  readonly #tasks = new InMemoryTaskStore();

  constructor(
    private readonly target: A2aTarget,
    private readonly store: RunStore | undefined,
  ) {}

  save(task: Task, context: ServerCallContext): Promise<void> {
    return this.#tasks.save(task, context);
  }

  async load(taskId: string, context: ServerCallContext): Promise<Task | undefined> {
    const known = await this.#tasks.load(taskId, context);
    if (known !== undefined || this.store === undefined) return known;
    const stored = await this.store.loadRun(taskId);
    if (stored === undefined || stored.kind !== (this.target.kind === 'agent' ? 'run' : 'chat')) return undefined;
    if (stored.name !== (this.target.kind === 'agent' ? this.target.agent.name : this.target.chat.name)) return undefined;
    const task = storedTask(stored);
    await this.#tasks.save(task, context);
    return task;
  }

  list: TaskStore['list'] = (params, context) => this.#tasks.list(params, context);
}

function storedTask(stored: StoredRun): Task {
  const status = (state: TaskState, parts = [textPart(statusLine(stored))]) => ({
    state,
    message: a2aMessage('agent', parts, { taskId: stored.runId }),
    timestamp: new Date(stored.updatedAt).toISOString(),
  });
  const wait = stored.status === 'waiting' ? storedWait(stored) : undefined;
  const taskStatus =
    stored.status === 'finished'
      ? status(TaskState.TASK_STATE_COMPLETED)
      : wait !== undefined
        ? status(TaskState.TASK_STATE_INPUT_REQUIRED, waitParts(wait))
        : status(stored.status === 'waiting' ? TaskState.TASK_STATE_INPUT_REQUIRED : TaskState.TASK_STATE_WORKING);
  return { id: stored.runId, contextId: '', status: taskStatus, artifacts: [], history: [], metadata: undefined };
}

function statusLine(stored: StoredRun): string {
  if (stored.status === 'finished')
    return `Finished (${String((stored.state as { reason?: unknown; stopReason?: unknown }).reason ?? (stored.state as { stopReason?: unknown }).stopReason)}).`;
  return stored.status === 'waiting' ? 'Waiting for input (read from the store).' : 'Working (read from the store).';
}

/** What a stored run or chat waits for, read from its checkpoint (the documented snapshot formats). */
function storedWait(stored: StoredRun): TaskWait | undefined {
  const state = stored.state as { waiting?: { kind?: string; speaker?: unknown; requests?: unknown; eligible?: unknown }; machine?: unknown } | null;
  if (stored.kind === 'chat') {
    const waiting = state?.waiting;
    if (waiting?.kind === 'approval') return { kind: 'approval', pending: pendingOf(waiting.requests) };
    if (waiting?.kind === 'human' && typeof waiting.speaker === 'string') return { kind: 'human', speaker: waiting.speaker };
    if (waiting?.kind === 'choice' && Array.isArray(waiting.eligible))
      return { kind: 'choice', eligible: waiting.eligible.filter((name) => typeof name === 'string') };
    return undefined;
  }
  const approvals = (state?.machine as { context?: { approvals?: { requests?: unknown; decisions?: Record<string, unknown> } } } | undefined)?.context
    ?.approvals;
  const decided = approvals?.decisions ?? {};
  const pending = pendingOf(approvals?.requests).filter((call) => !(call.callId in decided));
  return pending.length === 0 ? undefined : { kind: 'approval', pending };
}

function pendingOf(requests: unknown): PendingCall[] {
  if (!Array.isArray(requests)) return [];
  return requests.flatMap((request: { id?: unknown; toolName?: unknown; arguments?: unknown }) =>
    typeof request?.id === 'string' && typeof request.toolName === 'string'
      ? [{ callId: request.id, toolName: request.toolName, arguments: request.arguments }]
      : [],
  );
}
