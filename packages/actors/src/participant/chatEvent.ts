import type { ErrorInfo, Message, RunEvent, StateChange } from '@agentchart/core';

/**
 * Why a chat ended.
 * - `terminate-message`: a reply matched `terminate`.
 * - `max-rounds`: `maxRounds` turns were taken.
 * - `handoff-terminate`: a handoff, context condition or afterWork went to `terminate`.
 * - `selector-terminate`: the selection function or the manual chooser said `terminate`.
 * - `no-eligible-speaker`: the transitions left nobody who may speak.
 * - `empty-reply`: a speaker produced nothing (no text, no tool call).
 * - `returned-to-user`: afterWork `user` in a chat without a human participant.
 * - `token-budget`: the turns used the chat's `maxTokens`.
 * - `aborted`: the signal was aborted or `abort()` was called.
 * - `error`: a speaker's run failed or a selection function returned an ineligible name (see `error`).
 */
export type TerminationReason =
  | 'terminate-message'
  | 'max-rounds'
  | 'handoff-terminate'
  | 'selector-terminate'
  | 'no-eligible-speaker'
  | 'empty-reply'
  | 'returned-to-user'
  | 'token-budget'
  | 'aborted'
  | 'error';

/** How a speaker came to speak. */
export type SelectionSource = 'round_robin' | 'random' | 'manual' | 'auto' | 'function' | 'fallback' | 'handoff' | 'after-work' | 'resume';

/** Everything a chat reports on `events$`, in order. */
export type ChatEvent =
  | {
      type: 'chat.started';
      chatId: string;
      /** The chat's name (`GroupChatOptions.name`, default `group_chat`). */
      name?: string;
      messages: Message[];
      resumed: boolean;
    }
  | { type: 'speaker.selected'; chatId: string; round: number; speaker: string; by: SelectionSource; eligible: string[] }
  | { type: 'speaker.choice.requested'; chatId: string; eligible: string[] }
  | { type: 'speaker.chosen'; chatId: string; speaker: string }
  | { type: 'speaker.rejected'; chatId: string; answer: string; eligible: string[]; attempt: number }
  | {
      type: 'speaker.fallback';
      chatId: string;
      speaker: string;
      reason: 'ineligible-answers' | 'model-error';
      answers: string[];
      error?: ErrorInfo;
    }
  | { type: 'handoff'; chatId: string; from: string; to: string; via: 'tool' | 'context' | 'after-work' }
  | { type: 'human.waiting'; chatId: string; speaker: string }
  | { type: 'human.said'; chatId: string; speaker: string; text: string }
  | { type: 'approval.decide'; chatId: string; speaker: string; id: string; approved: boolean; reason?: string }
  | { type: 'agent.event'; chatId: string; speaker: string; event: RunEvent }
  | { type: 'nested.event'; chatId: string; speaker: string; event: ChatEvent }
  | { type: 'state.changed'; chatId: string; change: StateChange }
  | { type: 'turn.finished'; chatId: string; round: number; speaker: string; messages: Message[]; partial?: true }
  | {
      type: 'chat.finished';
      chatId: string;
      reason: TerminationReason;
      rounds: number;
      lastSpeaker: string | undefined;
      error?: ErrorInfo;
    };

/** The chat event of a given `type`. */
export type ChatEventOf<T extends ChatEvent['type']> = Extract<ChatEvent, { type: T }>;
