import { ConfigurationError } from '@agentchart/core';
import { ChatNotWaitingError, ChatSnapshotError } from './groupChatErrors.js';
import type { PersistedParticipantWaiting, StoredParticipantProgress } from '../participant/chatWaiting.js';
import type { CustomParticipant, ParticipantTurn, ParticipantTurnOptions } from '../participant/customParticipant.js';
import type { DelegatedProtocol, DelegatedTurn, DelegatedTurnState, TurnContext } from '../participant/participantProtocol.js';

/**
 * The participant protocol of a `CustomParticipant`: its turn's reply becomes
 * one assistant message named after it, its waits and a person's answers pass
 * through, and a turn that waits is persisted as
 * `{ kind: 'participant', speaker, waiting, state }` (`state` from the turn's
 * `persist()`, taken back by `resumeTurn`).
 *
 * @example
 * const protocol = customParticipantProtocol({ kind: 'custom', name: 'clock', takeTurn: () => ({ reply: Promise.resolve('noon') }) });
 */
export function customParticipantProtocol(participant: CustomParticipant): DelegatedProtocol {
  const { name } = participant;
  if (participant.stateSchema !== undefined && typeof (participant.stateSchema as { safeParse?: unknown }).safeParse !== 'function') {
    throw new ConfigurationError(`Custom participant "${name}": stateSchema must be a zod schema (z.object({ ... })).`, { name });
  }
  const turnOf = (turn: ParticipantTurn): DelegatedTurn => {
    if (typeof turn !== 'object' || turn === null || !(turn.reply instanceof Promise)) {
      throw new ConfigurationError(`Custom participant "${name}": takeTurn (and resumeTurn) must return { reply: Promise<string>, ... }.`, { name });
    }
    const answer = <K extends 'say' | 'approve' | 'reject' | 'select'>(method: K): NonNullable<ParticipantTurn[K]> => {
      const handler = turn[method];
      if (typeof handler !== 'function') {
        throw new ChatNotWaitingError(`Custom participant "${name}" takes no ${method}() in this turn (its turn has no ${method} method).`, { name });
      }
      return handler.bind(turn) as NonNullable<ParticipantTurn[K]>;
    };
    return {
      outcome: turn.reply.then((text) => {
        if (typeof text !== 'string') {
          throw new ConfigurationError(`Custom participant "${name}": its turn's reply must resolve to a string (got ${typeof text}).`, { name });
        }
        return { messages: [{ role: 'assistant', name, content: text }] };
      }),
      waiting: () => turn.waiting?.(),
      say: (text, options) => answer('say')(text, options),
      approve: (id) => answer('approve')(id),
      reject: (id, reason) => answer('reject')(id, reason),
      select: (speaker) => answer('select')(speaker),
      persist: () => {
        const waiting = turn.waiting?.();
        if (waiting === undefined || typeof turn.persist !== 'function') {
          throw new ChatNotWaitingError(
            `The turn of custom participant "${name}" cannot be persisted: it persists only while its waiting() reports a wait and it has a persist() method.`,
            { name, waiting },
          );
        }
        return { kind: 'participant', speaker: name, waiting, state: turn.persist() };
      },
      soFar: () => {
        const text = turn.partial?.();
        return typeof text === 'string' && text !== '' ? [{ role: 'assistant', name, content: text }] : undefined;
      },
    };
  };
  const { resumeTurn } = participant;
  /** Runs `take` with the turn's options; in a store, its `checkpoint()` stores the turn it returned. */
  const taken = (context: TurnContext, take: (options: ParticipantTurnOptions) => ParticipantTurn): DelegatedTurn => {
    const { store } = context;
    let turn: ParticipantTurn | undefined;
    let pending = false;
    let over = false;
    const checkpoint = (): void => {
      // Once the turn ended (or was stopped) the chat has gone on: a late call must not take it back into the turn.
      if (store === undefined || over || context.signal.aborted) return;
      if (typeof resumeTurn !== 'function') throw cannotCheckpoint(name);
      // Called inside takeTurn, before the turn exists: stored as soon as it does.
      if (turn === undefined) {
        pending = true;
        return;
      }
      if (typeof turn.persist !== 'function') throw cannotCheckpoint(name);
      const waiting = turn.waiting?.();
      // Copied now: the turn goes on changing its state; the checkpoint is written later.
      const state: unknown = structuredClone(turn.persist());
      store.checkpoint(waiting === undefined ? 'running' : 'waiting', () => ({
        kind: 'participant',
        speaker: name,
        ...(waiting === undefined ? {} : { waiting }),
        state,
      }));
    };
    turn = take({ signal: context.signal, checkpoint });
    if (pending) checkpoint();
    const delegated = turnOf(turn);
    const end = () => {
      over = true;
    };
    delegated.outcome.then(end, end);
    return delegated;
  };
  return {
    kind: 'custom',
    name,
    description: participant.description,
    start: (view, context) => taken(context, (options) => participant.takeTurn(view, options)),
    resume:
      typeof resumeTurn === 'function'
        ? (persisted, context) => taken(context, (options) => resumeTurn.call(participant, participantWaiting(persisted, name).state, options))
        : undefined,
    checkPersisted: (persisted, options) => {
      const waiting = participantWaiting(persisted, name);
      if (waiting.waiting === undefined && options?.checkpoint !== true) {
        throw new ChatSnapshotError(`The snapshot's turn of "${name}" does not say what it waits for (waiting).`, { speaker: name });
      }
      return { ...waiting, state: checkedState(participant, waiting.state) };
    },
    persistedWaiting: (persisted) => participantWaiting(persisted, name).waiting,
    storable: true,
  };
}

/** The persisted state, parsed by the participant's `stateSchema` when it has one (`ChatSnapshotError` with the path otherwise). */
function checkedState(participant: CustomParticipant, state: unknown): unknown {
  const { stateSchema, name } = participant;
  if (stateSchema === undefined) return state;
  const parsed = stateSchema.safeParse(state);
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const path = ['waiting', 'state', ...(issue?.path ?? [])].join('.');
  throw new ChatSnapshotError(
    `The persisted turn of custom participant "${name}" does not match its stateSchema: at ${path}, ${issue?.message ?? 'invalid'}. ` +
      'Resume it with the participant that persisted it.',
    { speaker: name, path },
  );
}

function cannotCheckpoint(name: string): ConfigurationError {
  return new ConfigurationError(
    `Custom participant "${name}" called checkpoint() in a chat kept in a store, which needs persist() on its turn and resumeTurn() on the participant: add both, or do not call it.`,
    { name },
  );
}

/** `persisted` as a wait inside this participant's turn; a nested chat's wait is not one. */
function participantWaiting(persisted: DelegatedTurnState, name: string): PersistedParticipantWaiting | StoredParticipantProgress {
  if (persisted.kind !== 'participant') {
    throw new ChatSnapshotError(
      `The snapshot waits inside "${name}" as if it were a nested group chat, but "${name}" is a custom participant. Resume it with the chat that persisted it.`,
      { speaker: name },
    );
  }
  return persisted;
}
