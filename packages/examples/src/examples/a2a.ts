/**
 * A group chat served over A2A: `pnpm example a2a`. The release team (a
 * planner, an engineer whose `deploy` needs approval, a reviewer) is served
 * by `serveA2a`; a client of the official SDK (`@a2a-js/sdk`) reads its
 * Agent Card, streams a task and prints every event. When the task becomes
 * input-required with the pending `deploy`, the client approves it in the
 * same task and streams the rest.
 */
import { randomUUID } from 'node:crypto';
import { type Part, Role, type StreamResponse, TaskState } from '@a2a-js/sdk';
import { ClientFactory } from '@a2a-js/sdk/client';
import { serveA2a } from '@agentchart/a2a';
import { releaseTeam } from '../a2a/releaseTeam.js';

const server = await serveA2a({ chats: [releaseTeam()] });
try {
  const url = server.urlOf('release_team');
  const client = await new ClientFactory().createFromUrl(url);
  const card = await client.getAgentCard();
  console.log(
    `Agent Card at ${url}.well-known/agent-card.json: ${card.name}, skills ${card.skills.map((skill) => skill.id).join(', ')}, streaming ${card.capabilities?.streaming}`,
  );

  console.log('\nclient → message/stream "Ship v2."');
  let ids = { taskId: '', contextId: '' };
  let pending: { callId: string; toolName: string }[] = [];
  for await (const event of client.sendMessageStream(send([text('Ship v2.')]))) {
    console.log(describe(event));
    if (event.payload?.$case === 'task') ids = { taskId: event.payload.value.id, contextId: event.payload.value.contextId };
    if (event.payload?.$case === 'statusUpdate' && event.payload.value.status?.state === TaskState.TASK_STATE_INPUT_REQUIRED) {
      pending = dataOf(event.payload.value.status.message?.parts ?? []).flatMap((value) => (value.pending as typeof pending | undefined) ?? []);
    }
  }

  console.log(`\nclient → message/stream in the same task: ${pending.map((call) => `{ "approve": "${call.callId}" }`).join(', ')}`);
  for await (const event of client.sendMessageStream(
    send(
      pending.map((call) => data({ approve: call.callId })),
      ids,
    ),
  ))
    console.log(describe(event));

  const task = await client.getTask({ tenant: '', id: ids.taskId });
  console.log(
    `\nclient → tasks/get: ${TaskState[task.status?.state ?? 0]}, answer "${task.artifacts.map((artifact) => texts(artifact.parts)).join('')}"`,
  );
} finally {
  await server.close();
}

function text(value: string): Part {
  return { content: { $case: 'text', value }, mediaType: 'text/plain', filename: '', metadata: undefined };
}

function data(value: Record<string, unknown>): Part {
  return { content: { $case: 'data', value }, mediaType: 'application/json', filename: '', metadata: undefined };
}

function send(parts: Part[], ids: { taskId?: string; contextId?: string } = {}) {
  const message = {
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

function texts(parts: readonly Part[]): string {
  return parts.flatMap((part) => (part.content?.$case === 'text' ? [part.content.value] : [])).join(' ');
}

function dataOf(parts: readonly Part[]): Record<string, unknown>[] {
  return parts.flatMap((part) => (part.content?.$case === 'data' ? [part.content.value as Record<string, unknown>] : []));
}

function describe(event: StreamResponse): string {
  const payload = event.payload;
  if (payload?.$case === 'task') return `  task ${TaskState[payload.value.status?.state ?? 0]}`;
  if (payload?.$case === 'artifactUpdate') return `  artifact "${payload.value.artifact?.artifactId}": ${texts(payload.value.artifact?.parts ?? [])}`;
  if (payload?.$case === 'statusUpdate') {
    const parts = payload.value.status?.message?.parts ?? [];
    const shown = dataOf(parts).find((value) => 'pending' in value || 'speaker' in value);
    return `  status ${TaskState[payload.value.status?.state ?? 0]}: ${texts(parts)}${shown !== undefined && 'pending' in shown ? ` ${JSON.stringify(shown)}` : ''}`;
  }
  return `  message: ${texts(payload?.value.parts ?? [])}`;
}
