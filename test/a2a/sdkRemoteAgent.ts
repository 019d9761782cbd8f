/** A remote agent written directly on the official SDK's server (express + JSON-RPC), for a2aParticipant and a2aTool. */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AgentCard, type Message, type Part, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, type ExecutionEventBus, InMemoryTaskStore, type RequestContext } from '@a2a-js/sdk/server';
import { UserBuilder, agentCardHandler, jsonRpcHandler } from '@a2a-js/sdk/server/express';
import express from 'express';

/** What the remote agent does with a message: answer, ask for input, fail, or be canceled. */
export type RemoteStep = { answer: string } | { ask: string; data?: Record<string, unknown> } | { fail: string } | { cancel: string };

/** A message the remote agent received: its texts, data parts, context and task. */
export interface Received {
  texts: string[];
  data: unknown[];
  contextId: string;
  taskId: string;
  /** Whether it continued a task that existed. */
  continued: boolean;
}

const part = (value: string): Part => ({ content: { $case: 'text', value }, mediaType: 'text/plain', filename: '', metadata: undefined });

/** Serves one agent named `name` on 127.0.0.1; `steps` decides each message's reply in order. */
export async function sdkRemoteAgent(name: string, steps: (received: Received, index: number) => RemoteStep) {
  const received: Received[] = [];
  const url = { value: '' };
  const executor = {
    execute: async (context: RequestContext, bus: ExecutionEventBus) => {
      const message = context.userMessage;
      const entry: Received = {
        texts: message.parts.flatMap((p) => (p.content?.$case === 'text' ? [p.content.value] : [])),
        data: message.parts.flatMap((p) => (p.content?.$case === 'data' ? [p.content.value] : [])),
        contextId: context.contextId,
        taskId: context.taskId,
        continued: context.task !== undefined,
      };
      received.push(entry);
      const step = steps(entry, received.length - 1);
      const { taskId, contextId } = context;
      bus.publish(
        AgentEvent.task(
          context.task ?? {
            id: taskId,
            contextId,
            status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
            artifacts: [],
            history: [message],
            metadata: undefined,
          },
        ),
      );
      const status = (state: TaskState, text: string, extra: Part[] = []) => {
        const reply: Message = {
          messageId: `${taskId}-${received.length}`,
          contextId,
          taskId,
          role: Role.ROLE_AGENT,
          parts: [part(text), ...extra],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        };
        bus.publish(
          AgentEvent.statusUpdate({ taskId, contextId, status: { state, message: reply, timestamp: new Date().toISOString() }, metadata: undefined }),
        );
      };
      if ('answer' in step) {
        bus.publish(
          AgentEvent.artifactUpdate({
            taskId,
            contextId,
            artifact: { artifactId: 'a', name: 'answer', description: '', parts: [part(step.answer)], metadata: undefined, extensions: [] },
            append: false,
            lastChunk: true,
            metadata: undefined,
          }),
        );
        status(TaskState.TASK_STATE_COMPLETED, 'done');
      } else if ('ask' in step) {
        status(
          TaskState.TASK_STATE_INPUT_REQUIRED,
          step.ask,
          step.data === undefined
            ? []
            : [{ content: { $case: 'data', value: step.data }, mediaType: 'application/json', filename: '', metadata: undefined }],
        );
      } else if ('fail' in step) status(TaskState.TASK_STATE_FAILED, step.fail);
      else status(TaskState.TASK_STATE_CANCELED, step.cancel);
      bus.finished();
    },
    cancelTask: async () => {},
  };
  const card = (): AgentCard => ({
    name,
    description: `The remote ${name}.`,
    supportedInterfaces: [{ url: url.value, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' }],
    provider: undefined,
    version: '1.0.0',
    capabilities: { streaming: false, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [
      { id: 'book', name: 'book', description: 'Books trips.', tags: [], examples: [], inputModes: [], outputModes: [], securityRequirements: [] },
    ],
    signatures: [],
  });
  const app = express();
  const http = createServer(app);
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  url.value = `http://127.0.0.1:${(http.address() as AddressInfo).port}/agent/`;
  const handler = new DefaultRequestHandler(card(), new InMemoryTaskStore(), executor);
  app.use('/agent/.well-known/agent-card.json', agentCardHandler({ agentCardProvider: handler }));
  app.use('/agent/', jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication }));
  return {
    url: url.value,
    received,
    close: async () => {
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
