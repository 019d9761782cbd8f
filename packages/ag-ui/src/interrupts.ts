import type { Interrupt, ResumeEntry } from '@ag-ui/core';
import { AgUiError } from './agUiError.js';

/** What a served run waits for: a tool call's approval, a person's turn, or a manual speaker choice. */
export type RunWait =
  | { kind: 'approval'; callId: string; toolName: string; arguments: unknown; speaker: string | undefined }
  | { kind: 'turn'; speaker: string }
  | { kind: 'choice'; eligible: string[] };

/** A person's answer to one wait, read from a resume entry. */
export type WaitAnswer =
  | { kind: 'approve'; callId: string }
  | { kind: 'reject'; callId: string; reason: string | undefined }
  | { kind: 'say'; speaker: string; text: string }
  | { kind: 'select'; speaker: string }
  | { kind: 'cancel' }
  | { kind: 'result'; callId: string; content: string };

const APPROVAL_SCHEMA = {
  type: 'object',
  properties: { approved: { type: 'boolean' }, reason: { type: 'string' } },
  required: ['approved'],
  additionalProperties: false,
};
const TURN_SCHEMA = { type: 'object', properties: { text: { type: 'string' } }, required: ['text'], additionalProperties: false };

/** The id of a wait's interrupt: the session it belongs to (thread and starting run), `#`, and the wait. */
export function interruptId(sessionId: string, wait: RunWait): string {
  if (wait.kind === 'approval') return `${sessionId}#approval:${wait.callId}`;
  if (wait.kind === 'turn') return `${sessionId}#turn:${wait.speaker}`;
  return `${sessionId}#choice`;
}

/** The session an interrupt id names (`undefined` for an id `serveAgUi` did not make). */
export function sessionOfInterrupt(id: string): string | undefined {
  const at = id.lastIndexOf('#');
  return at <= 0 ? undefined : id.slice(0, at);
}

/**
 * A wait as an AG-UI interrupt: `reason` `tool_approval` (with `toolCallId`,
 * the call's AG-UI id), `human_turn` or `speaker_choice`; `metadata` carries
 * the payload (`{ callId, toolName, arguments }`, `{ speaker }` or
 * `{ eligible }`), `responseSchema` the answer expected in the resume entry's payload.
 */
export function toInterrupt(sessionId: string, wait: RunWait, toolCallId: (callId: string) => string): Interrupt {
  const id = interruptId(sessionId, wait);
  if (wait.kind === 'approval') {
    return {
      id,
      reason: 'tool_approval',
      message: `${wait.speaker ?? 'The agent'} wants to call ${wait.toolName}: answer { "approved": true } or { "approved": false, "reason": "..." }.`,
      toolCallId: toolCallId(wait.callId),
      responseSchema: APPROVAL_SCHEMA,
      metadata: { callId: toolCallId(wait.callId), toolName: wait.toolName, arguments: wait.arguments ?? null },
    };
  }
  if (wait.kind === 'turn') {
    return {
      id,
      reason: 'human_turn',
      message: `It is ${wait.speaker}'s turn: answer { "text": "..." }.`,
      responseSchema: TURN_SCHEMA,
      metadata: { speaker: wait.speaker },
    };
  }
  return {
    id,
    reason: 'speaker_choice',
    message: `Choose who speaks next (${wait.eligible.join(', ')}) or "terminate": answer { "speaker": "..." }.`,
    responseSchema: { type: 'object', properties: { speaker: { type: 'string', enum: [...wait.eligible, 'terminate'] } }, required: ['speaker'] },
    metadata: { eligible: wait.eligible },
  };
}

/**
 * Reads the answers of a resume: every pending wait needs exactly one entry,
 * and every entry must name a pending wait (`AG_UI_NO_PENDING_INTERRUPT`);
 * a payload of the wrong shape is refused (`AG_UI_RESUME_INVALID`). A
 * `cancelled` entry rejects an approval and cancels a turn or a choice.
 */
export function readAnswers(sessionId: string, waits: readonly RunWait[], resume: readonly ResumeEntry[]): WaitAnswer[] {
  const byId = new Map(waits.map((wait) => [interruptId(sessionId, wait), wait]));
  const seen = new Set<string>();
  const answers: WaitAnswer[] = [];
  for (const entry of resume) {
    const wait = byId.get(entry.interruptId);
    if (wait === undefined) {
      throw new AgUiError(
        'AG_UI_NO_PENDING_INTERRUPT',
        `The resume names interrupt "${entry.interruptId}", which this thread is not waiting for (pending: ${[...byId.keys()].join(', ') || 'none'}).`,
        { interruptId: entry.interruptId, pending: [...byId.keys()] },
      );
    }
    if (seen.has(entry.interruptId)) throw new AgUiError('AG_UI_RESUME_INVALID', `The resume answers interrupt "${entry.interruptId}" twice.`);
    seen.add(entry.interruptId);
    answers.push(answerOf(wait, entry));
  }
  const missing = [...byId.keys()].filter((id) => !seen.has(id));
  if (missing.length > 0) {
    throw new AgUiError('AG_UI_RESUME_INVALID', `The resume leaves interrupts unanswered: ${missing.join(', ')}. Answer every pending interrupt.`, {
      missing,
    });
  }
  return answers;
}

function answerOf(wait: RunWait, entry: ResumeEntry): WaitAnswer {
  const payload: unknown = entry.payload;
  const fields = typeof payload === 'object' && payload !== null && !Array.isArray(payload) ? (payload as Record<string, unknown>) : undefined;
  const invalid = (expected: string) =>
    new AgUiError('AG_UI_RESUME_INVALID', `Interrupt "${entry.interruptId}" is answered with ${JSON.stringify(payload)}; it expects ${expected}.`, {
      interruptId: entry.interruptId,
    });
  if (wait.kind === 'approval') {
    if (entry.status === 'cancelled') return { kind: 'reject', callId: wait.callId, reason: 'The approval was cancelled.' };
    if (typeof fields?.approved !== 'boolean' || (fields.reason !== undefined && typeof fields.reason !== 'string')) {
      throw invalid('{ "approved": true } or { "approved": false, "reason": "..." }');
    }
    return fields.approved
      ? { kind: 'approve', callId: wait.callId }
      : { kind: 'reject', callId: wait.callId, reason: fields.reason as string | undefined };
  }
  if (entry.status === 'cancelled') return { kind: 'cancel' };
  if (wait.kind === 'turn') {
    if (typeof fields?.text !== 'string') throw invalid('{ "text": "..." }');
    return { kind: 'say', speaker: wait.speaker, text: fields.text };
  }
  if (typeof fields?.speaker !== 'string' || ![...wait.eligible, 'terminate'].includes(fields.speaker)) {
    throw invalid(`{ "speaker": one of ${[...wait.eligible, 'terminate'].join(', ')} }`);
  }
  return { kind: 'select', speaker: fields.speaker };
}
