import { type Message, type ToolCall, msg } from '@agentchart/core';
import type { AnyActorRef } from 'xstate';
import type { AgentContext } from '../agent/agentContext.js';
import type { ManagerContext } from './managerContext.js';
import { type TurnRecord, appendTurn } from './reviewTurn.js';

/** What a tool call still running (or waiting for approval) when the chat was aborted is answered with. */
export const ABORTED_CALL_CONTENT = 'The chat was aborted before this call returned a result.';

/**
 * The turn of an agent speaker cut short by an abort: what its run produced
 * so far (the messages it added to its view, and the results of its current
 * tool batch that came back), appended to the transcript as a `partial` turn.
 * A call of that batch with no result yet is answered with
 * `ABORTED_CALL_CONTENT` (an error), so the transcript stays one a model
 * accepts when the chat is resumed from it. `undefined` when the speaker had
 * produced no message yet (a reply still streaming is not a message).
 *
 * @example
 * const turn = partialAgentTurn(context, self.getSnapshot().children.speaker);
 * if (turn !== undefined) enqueue.assign(turn.update);
 */
export function partialAgentTurn(context: ManagerContext, speakerRun: AnyActorRef | undefined): TurnRecord | undefined {
  const run = speakerRun?.getSnapshot() as { context: AgentContext } | undefined;
  if (run === undefined) return undefined;
  const { messages, batch } = run.context;
  const produced = messages.slice(context.view.length);
  if (produced.length === 0) return undefined;
  const turnMessages = answerOpenCalls(produced, (call) => {
    const outcome = batch.outcomes[batch.calls.findIndex((candidate) => candidate.id === call.id)];
    return outcome ?? { content: ABORTED_CALL_CONTENT, isError: true };
  });
  return appendTurn(context, context.speaker as string, turnMessages, true);
}

/**
 * `messages` with a result after every tool call that has none (only the
 * last batch can be open: earlier ones were answered before the next model call).
 */
function answerOpenCalls(messages: Message[], answer: (call: ToolCall) => { content: string; isError: boolean }): Message[] {
  const answered = new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  const open = messages.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : [])).filter((call) => !answered.has(call.id));
  if (open.length === 0) return messages;
  return [
    ...messages,
    ...open.map((call) => {
      const { content, isError } = answer(call);
      return msg.tool(call.id, call.name, content, isError);
    }),
  ];
}
