import type { Message } from '@a2a-js/sdk';
import { dataOfParts, textOfParts } from './a2aParts.js';
import type { ServedRun, TaskWait } from './servedRun.js';

/**
 * Gives a served run what a client's message answers: one data part per
 * decision on a pending call (`{ "approve": "<callId>" }`,
 * `{ "reject": "<callId>", "reason": "…" }`), or a text part for a person's
 * turn (or the name of the next speaker, for a manual choice). Nothing is
 * given unless the whole answer fits the wait; the problem is returned
 * instead, in words the client can act on.
 */
export function answerTask(run: ServedRun, wait: TaskWait | undefined, message: Message): string | undefined {
  if (wait === undefined) return 'The task is not waiting for input: send an answer only while it is input-required.';
  const data = dataOfParts(message.parts);
  const text = textOfParts(message.parts);
  if (wait.kind === 'approval') {
    const decisions = data.flatMap(decisionOf);
    if (decisions.length === 0) {
      return 'The task waits for decisions on tool calls: send one data part per call, { "approve": "<callId>" } or { "reject": "<callId>", "reason": "…" }.';
    }
    const pending = new Set(wait.pending.map((call) => call.callId));
    const seen = new Set<string>();
    for (const decision of decisions) {
      if (!pending.has(decision.callId)) {
        return `No call "${decision.callId}" waits for a decision; pending: ${[...pending].join(', ')}.`;
      }
      if (seen.has(decision.callId)) return `The call "${decision.callId}" is decided twice in one message: send one decision per call.`;
      seen.add(decision.callId);
    }
    for (const decision of decisions) {
      if (decision.approve) run.approve(decision.callId);
      else run.reject(decision.callId, decision.reason);
    }
    return undefined;
  }
  if (text === '') {
    return wait.kind === 'human'
      ? `The task waits for ${wait.speaker}'s turn: send it as a text part.`
      : `The task waits for the choice of the next speaker: send a text part naming one of ${wait.eligible.join(', ')}.`;
  }
  if (wait.kind === 'human') run.say(text);
  else {
    if (!wait.eligible.includes(text)) return `"${text}" cannot speak next: name one of ${wait.eligible.join(', ')}.`;
    run.select(text);
  }
  return undefined;
}

type Decision = { callId: string; approve: true } | { callId: string; approve: false; reason?: string };

function decisionOf(value: Record<string, unknown>): Decision[] {
  if (typeof value.approve === 'string') return [{ callId: value.approve, approve: true }];
  if (typeof value.reject === 'string') {
    return [
      typeof value.reason === 'string' ? { callId: value.reject, approve: false, reason: value.reason } : { callId: value.reject, approve: false },
    ];
  }
  return [];
}
