import type { Message } from '@agentchart/core';
import type { z } from 'zod';
import type { ChatWaiting } from './chatWaiting.js';

/**
 * A participant you write yourself: anything that can take a turn on the
 * messages it is shown (a rules engine, a lookup, a program, another
 * framework's agent). Its reply is one message of the chat, named after it.
 * While a turn waits for a person it reports the wait (`waiting`), takes the
 * answers the chat's handle hands it (`say`, `approve`, `reject`, `select`)
 * and can be persisted with the chat (`persist`, then `resumeTurn`) — in a
 * snapshot while it waits, and in a store at each `options.checkpoint()`.
 *
 * @example
 * const clock: CustomParticipant = {
 *   kind: 'custom',
 *   name: 'clock',
 *   description: 'Says the time.',
 *   takeTurn: () => ({ reply: Promise.resolve(new Date().toISOString()) }),
 * };
 */
export interface CustomParticipant {
  readonly kind: 'custom';
  readonly name: string;
  /** How the `auto` selector and the others know it. */
  readonly description?: string | undefined;
  /** Takes one turn: `view` is what the participant is shown (as an agent would be). */
  takeTurn(view: readonly Message[], options: ParticipantTurnOptions): ParticipantTurn;
  /** Continues a turn persisted with `turn.persist()` (in this process or another): without it, a chat waiting in its turn cannot be resumed. */
  resumeTurn?(state: unknown, options: ParticipantTurnOptions): ParticipantTurn;
  /**
   * The shape of what the turn's `persist()` returns. A persisted state is
   * checked against it before the chat resumes (a snapshot or a store
   * checkpoint that does not match is refused with `ChatSnapshotError` and
   * the path of the first problem, before anything runs), and `resumeTurn`
   * gets the parsed value. Without it the state reaches `resumeTurn` as stored.
   */
  readonly stateSchema?: z.ZodType | undefined;
}

/** What a custom participant's turn is given. */
export interface ParticipantTurnOptions {
  /** Aborted when the chat is aborted during the turn: stop, and settle `reply`. */
  readonly signal: AbortSignal;
  /**
   * Call after the turn made progress worth keeping or began to wait. In a
   * chat kept in a store (`chat.run(task, { store })`) the chat then stores
   * the turn's `persist()` (and `waiting()`) in its checkpoint, and
   * `chat.resume(chatId, { store })` continues the turn from there with
   * `resumeTurn`; without a store it does nothing. The turn needs `persist`
   * and the participant `resumeTurn` (`ConfigurationError` otherwise). The
   * chat cannot see a turn's state change by itself: a turn that never
   * calls it is taken again from its start after a crash.
   */
  readonly checkpoint: () => void;
}

/** One turn of a custom participant, while it is taken. */
export interface ParticipantTurn {
  /** The turn's reply text (the chat appends `{ role: 'assistant', name, content }`); a rejection fails the turn. */
  readonly reply: Promise<string>;
  /** What the turn waits for, if it waits for a person (`say`, `approve`, `reject` or `select` on the chat's handle answer it). */
  waiting?(): ChatWaiting | undefined;
  say?(text: string, options?: { as?: string }): void;
  approve?(id: string): void;
  reject?(id: string, reason?: string): void;
  select?(speaker: string): void;
  /** The turn as plain JSON while it waits (the chat's `snapshot()` holds it; `resumeTurn` takes it back). */
  persist?(): unknown;
  /** What the turn has said so far: kept as a partial turn when the chat is aborted during it. */
  partial?(): string;
}
