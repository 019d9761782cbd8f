import { type Message, type Part, type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { A2aError } from './a2aError.js';
import { a2aMessage, dataOfParts, textOfParts } from './a2aParts.js';

/** What a remote task gave back: its answer, what it waits for, or how it ended otherwise. */
export type RemoteReply =
  | { kind: 'answer'; text: string; taskId: string | undefined; contextId: string }
  | { kind: 'input-required'; taskId: string; contextId: string; question: string; data: Record<string, unknown>[] };

/**
 * A remote A2A agent at a base URL: its client is built once from its Agent
 * Card (with the official SDK), and each `send` sends one message and reads
 * the task's reply. A failed, rejected or canceled task throws `A2aError`.
 */
export class A2aRemote {
  #client: Promise<Client> | undefined;

  constructor(readonly url: string) {}

  /** The SDK client, from the card at `<url>.well-known/agent-card.json`. */
  client(): Promise<Client> {
    this.#client ??= new ClientFactory().createFromUrl(this.url).catch((error: unknown) => {
      this.#client = undefined;
      throw new A2aError(
        'A2A_UNREACHABLE',
        `Could not read the Agent Card of ${this.url}: ${error instanceof Error ? error.message : String(error)}. Check the URL (with its trailing slash) and that the agent runs.`,
        { url: this.url },
        { cause: error },
      );
    });
    return this.#client;
  }

  /** Sends `parts` (in a context, and a task when it continues one) and waits until the task answers, waits for input, or ends. */
  async send(parts: Part[], ids: { contextId?: string; taskId?: string }, signal?: AbortSignal): Promise<RemoteReply> {
    const client = await this.client();
    const message = a2aMessage('user', parts, ids);
    let result: Message | Task;
    try {
      result = await client.sendMessage(
        { tenant: '', message, configuration: undefined, metadata: undefined },
        signal === undefined ? {} : { signal },
      );
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new A2aError(
        'A2A_UNREACHABLE',
        `The A2A agent at ${this.url} did not answer: ${error instanceof Error ? error.message : String(error)}`,
        { url: this.url },
        { cause: error },
      );
    }
    if (!('status' in result)) return { kind: 'answer', text: textOfParts(result.parts), taskId: undefined, contextId: result.contextId };
    return this.#read(result);
  }

  /** Asks the remote agent to cancel a task (what it answers is not waited for beyond the request). */
  async cancel(taskId: string): Promise<void> {
    const client = await this.client();
    await client.cancelTask({ tenant: '', id: taskId, metadata: undefined }).catch(() => {});
  }

  #read(task: Task): RemoteReply {
    const state = task.status?.state ?? TaskState.TASK_STATE_UNSPECIFIED;
    const statusParts = task.status?.message?.parts ?? [];
    if (state === TaskState.TASK_STATE_COMPLETED) {
      const answer = task.artifacts
        .map((artifact) => textOfParts(artifact.parts))
        .filter((text) => text !== '')
        .join('\n\n');
      return { kind: 'answer', text: answer !== '' ? answer : textOfParts(statusParts), taskId: task.id, contextId: task.contextId };
    }
    if (state === TaskState.TASK_STATE_INPUT_REQUIRED || state === TaskState.TASK_STATE_AUTH_REQUIRED) {
      return {
        kind: 'input-required',
        taskId: task.id,
        contextId: task.contextId,
        question: textOfParts(statusParts),
        data: dataOfParts(statusParts),
      };
    }
    const name = TaskState[state] ?? String(state);
    const why = textOfParts(statusParts).replace(/[.!]+$/, '');
    const details = { url: this.url, taskId: task.id, state: name };
    if (state === TaskState.TASK_STATE_CANCELED)
      throw new A2aError('A2A_REMOTE_CANCELED', `The A2A task ${task.id} at ${this.url} was canceled${why === '' ? '' : `: ${why}`}.`, details);
    if (state === TaskState.TASK_STATE_FAILED || state === TaskState.TASK_STATE_REJECTED) {
      throw new A2aError('A2A_REMOTE_FAILED', `The A2A task ${task.id} at ${this.url} ended ${name}${why === '' ? '' : `: ${why}`}.`, details);
    }
    throw new A2aError(
      'A2A_UNEXPECTED_REPLY',
      `The A2A agent at ${this.url} returned task ${task.id} in state ${name}, which is neither an answer nor a wait for input.`,
      details,
    );
  }
}
