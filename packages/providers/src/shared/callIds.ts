import type { Message } from '@agentchart/core';

/**
 * A call id for a server that sends none (Ollama never does). It is derived
 * from the transcript — the number of assistant turns before this reply and
 * the call's position in it — so the same transcript always yields the same
 * ids (replays and snapshots stay stable), and ids never repeat within a
 * growing transcript.
 *
 * @example
 * synthesizeCallId('ollama', [msg.user('Hi')], 0); // 'ollama_0_0'
 */
export function synthesizeCallId(prefix: string, messages: readonly Message[], callIndex: number): string {
  const turn = messages.reduce((count, message) => (message.role === 'assistant' ? count + 1 : count), 0);
  return `${prefix}_${turn}_${callIndex}`;
}
