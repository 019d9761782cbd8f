import type { AgentRun, ChatEvent, GroupChatRun } from '@agentchart/actors';
import type { Message, RunEvent } from '@agentchart/core';
import type { Observable } from 'rxjs';
import { heldEvents } from './heldEvents.js';

/** A tool call that waits for a person's decision, as the task's status shows it. */
export interface PendingCall {
  readonly callId: string;
  readonly toolName: string;
  readonly arguments: unknown;
}

/** What a served run waits for: decisions on tool calls, a person's turn, or a manual choice of the next speaker. */
export type TaskWait =
  | { readonly kind: 'approval'; readonly pending: readonly PendingCall[] }
  | { readonly kind: 'human'; readonly speaker: string }
  | { readonly kind: 'choice'; readonly eligible: readonly string[] };

/** A line of progress of a served run: a text and the same as data. */
export interface TaskProgress {
  readonly text: string;
  readonly data: Record<string, unknown>;
}

/** How a served run ended. */
export interface TaskOutcome {
  readonly state: 'completed' | 'failed' | 'canceled';
  /** The final answer (completed), or what went wrong. */
  readonly text: string;
}

/**
 * An agent run or a chat run as a task sees it: its progress, its waits and
 * the answers to them, abort, and its outcome. The run's own handle decides
 * everything; this only reads it and forwards to it.
 */
export interface ServedRun {
  /** The run's events from its start (held until the task subscribes). */
  readonly events$: Observable<unknown>;
  progressOf(event: unknown): TaskProgress | undefined;
  waiting(): TaskWait | undefined;
  approve(callId: string): void;
  reject(callId: string, reason?: string): void;
  say(text: string): void;
  select(speaker: string): void;
  abort(): void;
  readonly outcome: Promise<TaskOutcome>;
}

/** An agent's run as a task. */
export function servedAgentRun(run: AgentRun): ServedRun {
  return {
    events$: heldEvents(run.events$),
    progressOf: (event) => agentProgress(event as RunEvent, undefined),
    waiting: () => {
      const pending = run.pendingApprovals;
      return pending.length === 0 ? undefined : { kind: 'approval', pending: pending.map(pendingCall) };
    },
    approve: (id) => run.approve(id),
    reject: (id, reason) => run.reject(id, reason),
    say: () => {
      throw new Error('The agent waits for no person’s turn.');
    },
    select: () => {
      throw new Error('The agent chooses no speaker.');
    },
    abort: () => run.abort(),
    outcome: run.result.then((result) => {
      if (result.stopReason === 'aborted') return { state: 'canceled', text: 'The run was canceled.' };
      if (result.stopReason === 'error') return { state: 'failed', text: result.error?.message ?? 'The run failed.' };
      return { state: 'completed', text: result.text };
    }),
  };
}

/** A group chat's run as a task. */
export function servedChatRun(run: GroupChatRun): ServedRun {
  return {
    events$: heldEvents(run.events$),
    progressOf: (event) => chatProgress(event as ChatEvent),
    waiting: () => {
      const waiting = run.waiting();
      if (waiting === undefined) return undefined;
      if (waiting.kind === 'approval') return { kind: 'approval', pending: waiting.requests.map(pendingCall) };
      if (waiting.kind === 'human') return { kind: 'human', speaker: waiting.speaker };
      return { kind: 'choice', eligible: waiting.eligible };
    },
    approve: (id) => run.approve(id),
    reject: (id, reason) => run.reject(id, reason),
    say: (text) => run.say(text),
    select: (speaker) => run.select(speaker),
    abort: () => run.abort(),
    outcome: run.result.then((result) => {
      if (result.reason === 'aborted') return { state: 'canceled', text: 'The chat was canceled.' };
      if (result.error !== undefined || result.reason === 'error') return { state: 'failed', text: result.error?.message ?? 'The chat failed.' };
      const last = [...result.messages].reverse().find((message) => message.role === 'assistant' && textOf(message) !== '');
      return { state: 'completed', text: last === undefined ? '' : textOf(last) };
    }),
  };
}

function pendingCall(request: { id: string; toolName: string; arguments: unknown }): PendingCall {
  return { callId: request.id, toolName: request.toolName, arguments: request.arguments };
}

function chatProgress(event: ChatEvent): TaskProgress | undefined {
  switch (event.type) {
    case 'speaker.selected':
      return { text: `${event.speaker} speaks (round ${event.round})`, data: { event: 'speaker', speaker: event.speaker, round: event.round } };
    case 'turn.finished': {
      const text = event.messages
        .filter((message) => message.role === 'assistant')
        .map(textOf)
        .filter((line) => line !== '')
        .join('\n');
      return { text: `${event.speaker}: ${text}`, data: { event: 'turn', speaker: event.speaker, round: event.round, text } };
    }
    case 'agent.event':
      return agentProgress(event.event, event.speaker);
    case 'nested.event':
      return chatProgress(event.event);
    default:
      return undefined;
  }
}

function agentProgress(event: RunEvent, speaker: string | undefined): TaskProgress | undefined {
  const who = speaker ?? event.agent;
  if (event.type === 'tool.call') {
    return {
      text: `${who} calls ${event.call.name}`,
      data: { event: 'tool.call', speaker: who, callId: event.call.id, toolName: event.call.name, arguments: event.call.arguments },
    };
  }
  if (event.type === 'tool.result') {
    return {
      text: `${who}: ${event.toolName} ${event.isError ? 'failed' : 'done'}: ${event.content}`,
      data: { event: 'tool.result', speaker: who, callId: event.callId, toolName: event.toolName, isError: event.isError, content: event.content },
    };
  }
  if (event.type === 'tool.refused') {
    return { text: `${who}: ${event.call.name} refused`, data: { event: 'tool.refused', speaker: who, toolName: event.call.name } };
  }
  return undefined;
}

function textOf(message: Message): string {
  return typeof message.content === 'string' ? message.content : '';
}
