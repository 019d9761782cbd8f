/** Clients of the official SDK for the tests, and a way to read what a stream gave. */
import { type Message, type Part, Role, type StreamResponse, type Task, TaskState } from '@a2a-js/sdk';
import { type Client, ClientFactory } from '@a2a-js/sdk/client';
import { randomUUID } from 'node:crypto';

/** A client built from the card at `baseUrl` (with its trailing slash). */
export function clientFor(baseUrl: string): Promise<Client> {
  return new ClientFactory().createFromUrl(baseUrl);
}

export const text = (value: string): Part => ({ content: { $case: 'text', value }, mediaType: 'text/plain', filename: '', metadata: undefined });
export const data = (value: Record<string, unknown>): Part => ({
  content: { $case: 'data', value },
  mediaType: 'application/json',
  filename: '',
  metadata: undefined,
});

/** A send request of a user message (in a task, when given). */
export function userMessage(parts: Part[], ids: { taskId?: string; contextId?: string } = {}) {
  const message: Message = {
    messageId: randomUUID(),
    contextId: ids.contextId ?? '',
    taskId: ids.taskId ?? '',
    role: Role.ROLE_USER,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { tenant: '', message, configuration: undefined, metadata: undefined };
}

export function asTask(result: unknown): Task {
  if (typeof result !== 'object' || result === null || !('status' in result)) throw new Error(`Not a task: ${JSON.stringify(result)}`);
  return result as Task;
}

export const stateName = (state: TaskState | undefined) => (state === undefined ? 'none' : TaskState[state]);

/** The text and data parts of a part list, as plain values. */
export function partsOf(parts: readonly Part[] | undefined): unknown[] {
  return (parts ?? []).map((part) => (part.content?.$case === 'text' || part.content?.$case === 'data' ? part.content.value : part.content?.$case));
}

/** A line per stream event: `task STATE`, `status STATE: texts | data`, `artifact: text`. */
export function describe(event: StreamResponse): string {
  const payload = event.payload;
  if (payload?.$case === 'task') return `task ${stateName(payload.value.status?.state)}`;
  if (payload?.$case === 'statusUpdate') {
    const parts = partsOf(payload.value.status?.message?.parts);
    return `status ${stateName(payload.value.status?.state)}: ${parts.map((part) => (typeof part === 'string' ? part : JSON.stringify(part))).join(' | ')}`;
  }
  if (payload?.$case === 'artifactUpdate')
    return `artifact ${payload.value.artifact?.artifactId}: ${partsOf(payload.value.artifact?.parts).join('')}`;
  return `message: ${partsOf(payload?.value.parts).join('')}`;
}

/** Reads a stream to its end, each event described. */
export async function collect(
  stream: AsyncIterable<StreamResponse>,
  onEvent: (event: StreamResponse) => void = () => {},
): Promise<{ lines: string[]; events: StreamResponse[] }> {
  const lines: string[] = [];
  const events: StreamResponse[] = [];
  for await (const event of stream) {
    events.push(event);
    lines.push(describe(event));
    onEvent(event);
  }
  return { lines, events };
}

/** The task id of a stream's first event. */
export function taskIdOf(events: readonly StreamResponse[]): { taskId: string; contextId: string } {
  const first = events[0]?.payload;
  if (first?.$case !== 'task') throw new Error('The stream did not begin with a task.');
  return { taskId: first.value.id, contextId: first.value.contextId };
}
