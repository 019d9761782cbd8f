import { type Artifact, type Message, type Part, type Task, TaskState } from '@a2a-js/sdk';
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

  /**
   * Sends `parts` (in a context, and a task when it continues one) and
   * follows the task (streamed when the card says it streams) until it
   * answers, waits for input, or ends; `onTask` hears the task's id as soon
   * as it is known.
   */
  async send(
    parts: Part[],
    ids: { contextId?: string; taskId?: string },
    signal?: AbortSignal,
    onTask: (taskId: string) => void = () => {},
  ): Promise<RemoteReply> {
    const client = await this.client();
    const request = { tenant: '', message: a2aMessage('user', parts, ids), configuration: undefined, metadata: undefined };
    let task: Task | undefined;
    let message: Message | undefined;
    try {
      for await (const event of client.sendMessageStream(request, signal === undefined ? {} : { signal })) {
        const payload = event.payload;
        if (payload?.$case === 'message') message = payload.value;
        else if (payload?.$case === 'task') {
          task = payload.value;
          onTask(task.id);
        } else if (payload?.$case === 'statusUpdate' && task !== undefined) task = { ...task, status: payload.value.status };
        else if (payload?.$case === 'artifactUpdate' && task !== undefined && payload.value.artifact !== undefined) {
          task = { ...task, artifacts: withArtifact(task.artifacts, payload.value.artifact, payload.value.append) };
        }
      }
    } catch (error) {
      if (signal?.aborted) throw error;
      throw new A2aError(
        'A2A_UNREACHABLE',
        `The A2A agent at ${this.url} did not answer: ${error instanceof Error ? error.message : String(error)}`,
        { url: this.url },
        { cause: error },
      );
    }
    if (task !== undefined) return this.#read(task);
    if (message !== undefined) return { kind: 'answer', text: textOfParts(message.parts), taskId: undefined, contextId: message.contextId };
    throw new A2aError('A2A_UNEXPECTED_REPLY', `The A2A agent at ${this.url} answered with neither a task nor a message.`, { url: this.url });
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

/** The artifacts with `artifact` added, or appended to the one of its id. */
function withArtifact(artifacts: readonly Artifact[], artifact: Artifact, append: boolean): Artifact[] {
  const index = artifacts.findIndex((known) => known.artifactId === artifact.artifactId);
  if (index === -1) return [...artifacts, artifact];
  const merged = append ? { ...artifact, parts: [...(artifacts[index]?.parts ?? []), ...artifact.parts] } : artifact;
  return artifacts.map((known, at) => (at === index ? merged : known));
}
