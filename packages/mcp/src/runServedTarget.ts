import type { ChatEvent } from '@agentchart/actors';
import type { Message, RunEvent } from '@agentchart/core';
import type { CallToolResult } from '@modelcontextprotocol/server';
import type { ServedTarget } from './servedTargets.js';

/** A progress report of a served run: a running count and a line of what happened. */
export type ReportProgress = (message: string) => void;

/**
 * Runs a served agent or chat on one MCP tool call: cancelled with `signal`;
 * each finished chat turn (or, for an agent, each tool call and answer) is
 * reported with `report`; calls that wait for approval are rejected (an MCP
 * client cannot approve them). The answer is the tool result: the agent's
 * text or the chat's last message, with the details as structured content;
 * a run that ends in an error is an `isError` result.
 */
export async function runServedTarget(target: ServedTarget, input: string, signal: AbortSignal, report: ReportProgress): Promise<CallToolResult> {
  if (target.kind === 'agent') {
    const run = target.agent.run(input, { signal });
    const events = run.events$.subscribe((event) => {
      const line = agentProgress(event);
      if (line !== undefined) report(line);
      if (event.type === 'approval.requested') run.reject(event.id, 'Calls that need approval cannot be approved over MCP.');
    });
    try {
      const result = await run.result;
      const structured = { stopReason: result.stopReason, steps: result.steps, toolCalls: result.toolCalls.map((record) => record.call.name) };
      if (result.stopReason === 'error')
        return errorResult(`The agent "${target.agent.name}" failed: ${result.error?.message ?? 'unknown error'}`, structured);
      return { content: [{ type: 'text', text: result.text }], structuredContent: structured };
    } finally {
      events.unsubscribe();
    }
  }
  const run = target.chat.run(input, { signal });
  const events = run.events$.subscribe((event: ChatEvent) => {
    if (event.type === 'turn.finished') report(`${event.speaker}: ${turnText(event.messages)}`);
    if (event.type === 'agent.event' && event.event.type === 'approval.requested') {
      run.reject(event.event.id, 'Calls that need approval cannot be approved over MCP.');
    }
  });
  try {
    const result = await run.result;
    const turns = result.turns.map((turn) => ({ speaker: turn.speaker, text: turnText(result.messages.slice(turn.start, turn.end)) }));
    const structured = { reason: result.reason, lastSpeaker: result.lastSpeaker ?? null, rounds: result.rounds, turns };
    if (result.error !== undefined) return errorResult(`The group chat "${target.chat.name}" failed: ${result.error.message}`, structured);
    const last = [...result.messages].reverse().find((message) => message.role === 'assistant');
    return { content: [{ type: 'text', text: last === undefined ? '' : textOf(last) }], structuredContent: structured };
  } finally {
    events.unsubscribe();
  }
}

function agentProgress(event: RunEvent): string | undefined {
  if (event.type === 'tool.call') return `${event.agent} calls ${event.call.name}`;
  if (event.type === 'tool.result') return `${event.agent}: ${event.toolName} ${event.isError ? 'failed' : 'done'}`;
  if (event.type === 'message' && event.message.role === 'assistant' && textOf(event.message) !== '')
    return `${event.agent}: ${textOf(event.message)}`;
  return undefined;
}

function turnText(messages: readonly Message[]): string {
  return messages
    .filter((message) => message.role === 'assistant')
    .map(textOf)
    .filter((text) => text !== '')
    .join('\n');
}

function textOf(message: Message): string {
  return typeof message.content === 'string' ? message.content : '';
}

function errorResult(text: string, structured: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text }], structuredContent: structured };
}
