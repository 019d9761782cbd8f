import { type Message, type ToolCall, msg } from '@agentchart/core';
import type { AgentContext } from '../agent/machine/agentContext.js';
import { type ManagerContext, speakerOf } from './managerContext.js';
import type { Transcript } from './transcript.js';
import { type TurnRecord, appendTurn } from './reviewTurn.js';

/** The speaker's run as a partial turn reads it: the speaking agent's resident actor (`residentAgents.ts`). */
export interface SpeakerRunView {
  getSnapshot(): unknown;
}

/** What a tool call still running (or waiting for approval) when the chat was aborted is answered with. */
const ABORTED_CALL_CONTENT = 'The chat was aborted before this call returned a result.';

/**
 * The turn of the speaker cut short by an abort, if it produced anything: an
 * agent's (`partialAgentTurn`), a nested chat's or a custom participant's (`partialDelegatedTurn`).
 * `speakerRun` is the speaking agent's resident actor.
 *
 * @example
 * const turn = partialTurn(context, speakingResident(context));
 */
export function partialTurn(context: ManagerContext, speakerRun: SpeakerRunView | undefined): TurnRecord | undefined {
  const kind = context.speaker === undefined ? undefined : context.runtime.members.get(context.speaker)?.kind;
  if (kind === 'agent') return partialAgentTurn(context, speakerRun);
  if (kind === 'chat' || kind === 'custom') return partialDelegatedTurn(context);
  return undefined;
}

/**
 * The transcript of a chat as it stands: with the turn in progress appended
 * as a partial turn (what the chat's result would hold if it were aborted now).
 *
 * @example
 * const { messages, turns } = transcriptSoFar(snapshot.context, speakingResident(snapshot.context));
 */
export function transcriptSoFar(context: ManagerContext, speakerRun: SpeakerRunView | undefined): Transcript {
  return partialTurn(context, speakerRun)?.update ?? context;
}

/**
 * The turn of a nested chat or a custom participant cut short by an abort:
 * what it said so far (a nested chat's reply so far is the text of the last
 * of its turns, its own turn in progress included, that said something).
 * `undefined` when it said nothing.
 */
function partialDelegatedTurn(context: ManagerContext): TurnRecord | undefined {
  const soFar = context.run.currentTurn.turn?.soFar();
  return soFar === undefined ? undefined : appendTurn(context, speakerOf(context), soFar, true);
}

/**
 * The turn of an agent speaker cut short by an abort: what its run produced
 * so far (the messages it added to its view, and the results of its current
 * tool batch that came back), appended to the transcript as a `partial` turn.
 * A call of that batch with no result yet is answered with
 * `ABORTED_CALL_CONTENT` (an error), so the transcript stays one a model
 * accepts when the chat is resumed from it. `undefined` when the speaker had
 * produced no message yet (a reply still streaming is not a message).
 */
function partialAgentTurn(context: ManagerContext, speakerRun: SpeakerRunView | undefined): TurnRecord | undefined {
  const run = speakerRun?.getSnapshot() as { context: AgentContext } | undefined;
  if (run === undefined) return undefined;
  const { messages, batch } = run.context;
  const produced = messages.slice(context.view.length);
  if (produced.length === 0) return undefined;
  const turnMessages = answerOpenCalls(produced, (call) => {
    const outcome = batch.outcomes[batch.calls.findIndex((candidate) => candidate.id === call.id)];
    return outcome ?? { content: ABORTED_CALL_CONTENT, isError: true };
  });
  return appendTurn(context, speakerOf(context), turnMessages, true);
}

/**
 * `messages` with a result after every tool call that has none (only the
 * last batch can be open: earlier ones were answered before the next model call).
 */
function answerOpenCalls(messages: Message[], answer: (call: ToolCall) => { content: string; isError: boolean }): Message[] {
  const answered = new Set(messages.flatMap((message) => (message.role === 'tool' ? [message.toolCallId] : [])));
  const open = messages
    .flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))
    .filter((call) => !answered.has(call.id));
  if (open.length === 0) return messages;
  return [
    ...messages,
    ...open.map((call) => {
      const { content, isError } = answer(call);
      return msg.tool(call.id, call.name, content, isError);
    }),
  ];
}
