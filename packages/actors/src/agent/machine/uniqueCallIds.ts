import type { Message, ToolCall } from '@agentchart/core';

/**
 * Gives every call of a reply an id no other call of the run has: a call
 * whose id the model already used (in this reply or earlier in the
 * transcript) gets `<id>~<n>`, with the model's id kept as `modelId` for the
 * wire. Approvals, results and the journal then address each call apart.
 * Calls with fresh ids are returned as they are.
 *
 * @example
 * makeCallIdsUnique([{ id: 'dup', name: 'a' }, { id: 'dup', name: 'b' }], []);
 * // [{ id: 'dup', name: 'a' }, { id: 'dup~2', name: 'b', modelId: 'dup' }]
 */
export function makeCallIdsUnique(calls: readonly ToolCall[], transcript: readonly Message[]): ToolCall[] {
  if (calls.length === 0 || allFresh(calls, transcript)) return calls as ToolCall[];
  const used = new Set<string>();
  for (const message of transcript) {
    if (message.role === 'assistant') for (const call of message.toolCalls ?? []) used.add(call.id);
    else if (message.role === 'tool') used.add(message.toolCallId);
  }
  return calls.map((call) => {
    if (!used.has(call.id)) {
      used.add(call.id);
      return call;
    }
    let n = 2;
    while (used.has(`${call.id}~${n}`)) n += 1;
    const id = `${call.id}~${n}`;
    used.add(id);
    return { ...call, id, modelId: call.modelId ?? call.id };
  });
}

/**
 * Whether no id of `calls` repeats within them or in the transcript: the
 * common case, checked by comparing strings, without building the set of
 * every id of the run (that set is made only when some id repeats).
 */
function allFresh(calls: readonly ToolCall[], transcript: readonly Message[]): boolean {
  if (calls.length === 1) return isFresh((calls[0] as ToolCall).id, transcript);
  for (let index = 1; index < calls.length; index++) {
    const id = (calls[index] as ToolCall).id;
    for (let before = 0; before < index; before++) if ((calls[before] as ToolCall).id === id) return false;
  }
  for (const message of transcript) {
    if (message.role === 'tool') {
      for (const call of calls) if (call.id === message.toolCallId) return false;
    } else if (message.role === 'assistant' && message.toolCalls !== undefined) {
      for (const earlier of message.toolCalls) for (const call of calls) if (call.id === earlier.id) return false;
    }
  }
  return true;
}

/** `allFresh` for a reply of one call (the common case): one id against the transcript's. */
function isFresh(id: string, transcript: readonly Message[]): boolean {
  for (let index = 0; index < transcript.length; index++) {
    const message = transcript[index] as Message;
    if (message.role === 'tool') {
      if (message.toolCallId === id) return false;
    } else if (message.role === 'assistant') {
      const earlier = message.toolCalls;
      if (earlier !== undefined) for (let call = 0; call < earlier.length; call++) if ((earlier[call] as ToolCall).id === id) return false;
    }
  }
  return true;
}
