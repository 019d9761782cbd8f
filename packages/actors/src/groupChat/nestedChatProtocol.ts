import { type AssistantMessage, ConfigurationError, type Message } from '@agentchart/core';
import type { DelegatedProtocol, DelegatedTurn, DelegatedTurnState, TurnContext } from '../participant/participantProtocol.js';
import type { Residence } from '../participant/residence.js';
import type { ChatCheckpoints } from './chatCheckpoints.js';
import { replyText } from './chatViews.js';
import { ChatSnapshotError } from './groupChatErrors.js';
import type { GroupChatRunOptions } from './groupChatTypes.js';
import type { ChatTurn, GroupChatSnapshot } from '../participant/chatWaiting.js';
import type { GroupChatRun } from './groupChatRun.js';
import type { NestedChatParticipant } from './groupChatOptions.js';
import { persistedWaiting } from './persistedWaiting.js';
import type { ChatRunStarted } from './chatRunStarted.js';
import type { Transcript } from './transcript.js';
import type { NestedChatStore } from './nestedChatStore.js';

/**
 * What a chat made by `createGroupChat` gives the chats it takes part in,
 * beyond its public `run` and `resume`: runs with their transcript so far,
 * and the check its `resume` makes of a snapshot.
 */
export interface OwnChatRuns {
  /**
   * `chat.run`, with the run's transcript so far; `checkpoints` when the
   * outer chat is kept in a store. With `residence` (the turn's, see
   * `TurnContext.residence`) the run is taken by the chat's resident manager
   * kept there, made by its first run (`ResidentChat`).
   */
  run(input: Message[], options: GroupChatRunOptions, checkpoints?: ChatCheckpoints, residence?: Residence): ChatRunStarted;
  /** `chat.resume`, with the run's transcript so far (on the resident manager kept in `residence`, as `run`). */
  resume(snapshot: unknown, options: Pick<GroupChatRunOptions, 'signal' | 'inspect'>, residence?: Residence): ChatRunStarted;
  /** Everything `chat.resume` checks of a snapshot (throws `ChatSnapshotError`); the copy it would resume from. */
  checkSnapshot(snapshot: unknown): GroupChatSnapshot;
  /** Its turns in a chat kept in a store: checkpointed into the outer chat's, resumed from there. */
  readonly stored: NestedChatStore;
}

/**
 * A nested chat's reply in the outer chat: the text of its last turn that
 * said something, as an assistant message named for the nested chat.
 *
 * @example
 * nestedReply('research_team', result); // { role: 'assistant', name: 'research_team', content: 'Verified: three hearts.' }
 */
export function nestedReply(name: string, transcript: Transcript): AssistantMessage {
  let text = '';
  for (let index = transcript.turns.length - 1; index >= 0 && text === ''; index--) {
    const turn = transcript.turns[index] as ChatTurn;
    text = replyText(transcript.messages.slice(turn.start, turn.end));
  }
  return { role: 'assistant', name, content: text };
}

/**
 * The participant protocol of a group chat taking its turn in another chat:
 * the turn runs the nested chat on the speaker's view (in its own actor
 * system, with its own shared state, seen by the outer run's `inspect`), its
 * events go onto the outer bus as `nested.event`, and its reply is
 * `nestedReply`. A wait inside it is persisted as
 * `{ kind: 'nested', speaker, snapshot }` with the nested chat's own snapshot.
 * `own` is what a chat made by `createGroupChat` adds: the transcript so far
 * (what an abort keeps of the turn), the check of a persisted wait, and its
 * turns in a chat kept in a store (`TurnContext.store`: its own checkpoints
 * become the outer chat's, its agents' tools go through the outer journal,
 * and it resumes from such a checkpoint); a chat written by hand has none of
 * these, so a chat that has one cannot be kept in a store (`storable`).
 *
 * @example
 * const protocol = nestedChatProtocol(team, undefined);
 */
export function nestedChatProtocol(chat: NestedChatParticipant, own: OwnChatRuns | undefined): DelegatedProtocol {
  const { name } = chat;
  const turnOf = (started: ChatRunStarted | { run: GroupChatRun; transcriptSoFar?: undefined }, context: TurnContext): DelegatedTurn => {
    const { run } = started;
    const forwarding = run.events$.subscribe(context.forward);
    const outcome = run.result
      .finally(() => forwarding.unsubscribe())
      .then((result) => ({
        messages: [nestedReply(name, result)],
        error: result.reason === 'error' ? result.error : undefined,
        usage: result.usage,
        cost: result.cost,
      }));
    return {
      outcome,
      waiting: () => run.waiting(),
      say: (text, options) => run.say(text, options),
      approve: (id) => run.approve(id),
      reject: (id, reason) => run.reject(id, reason),
      select: (speaker) => run.select(speaker),
      persist: () => ({ kind: 'nested', speaker: name, snapshot: run.snapshot() }),
      soFar: () => {
        const transcript = started.transcriptSoFar?.();
        if (transcript === undefined) return undefined;
        const reply = nestedReply(name, transcript);
        return reply.content === '' ? undefined : [reply];
      },
    };
  };
  const check = (persisted: DelegatedTurnState) => nestedWaiting(persisted, name);
  const { resume } = chat;
  return {
    kind: 'chat',
    name,
    description: chat.description,
    // The outer view names the outer chat's speakers, who are not the nested chat's participants: context for it.
    start: (view, context) => {
      const options: GroupChatRunOptions = {
        signal: context.signal,
        inspect: context.inspect,
        unknownSpeakers: 'context',
        ...(context.maxTokens === undefined ? {} : { maxTokens: context.maxTokens }),
      };
      if (own === undefined) {
        if (context.store !== undefined) throw notStorable(name);
        return turnOf({ run: chat.run(view, options) }, context);
      }
      if (context.store === undefined) return turnOf(own.run(view, options, undefined, context.residence), context);
      // In a store: the nested chat's checkpoints are the outer chat's, from its task on.
      const hooks = own.stored.hooks(context.store, name);
      const started = own.run(view, options, hooks.checkpoints, context.residence);
      hooks.started();
      return turnOf(started, context);
    },
    resume:
      typeof resume === 'function'
        ? (persisted, context) => {
            const { snapshot } = check(persisted);
            const options = { signal: context.signal, inspect: context.inspect };
            if (own === undefined) {
              if (context.store !== undefined) throw notStorable(name);
              return turnOf({ run: resume.call(chat, snapshot, options) }, context);
            }
            if (context.store === undefined) return turnOf(own.resume(snapshot, options, context.residence), context);
            const { checkpoints } = own.stored.hooks(context.store, name);
            return turnOf(own.stored.resume(snapshot, options, checkpoints, context.residence), context);
          }
        : undefined,
    checkPersisted: (persisted, options) => {
      const waiting = check(persisted);
      if (own === undefined) return waiting;
      try {
        const snapshot = options?.checkpoint === true ? own.stored.check(waiting.snapshot) : own.checkSnapshot(waiting.snapshot);
        return { ...waiting, snapshot: snapshot as GroupChatSnapshot };
      } catch (error) {
        if (!(error instanceof ChatSnapshotError)) throw error;
        throw new ChatSnapshotError(`Inside the nested chat "${name}": ${error.message}`, { ...error.details, within: name });
      }
    },
    persistedWaiting: (persisted) => {
      const inner = check(persisted).snapshot.waiting;
      // A store checkpoint of the nested chat may stand at a step (`selecting`, `turn`): no wait.
      const { kind } = inner as { kind: string };
      return kind === 'selecting' || kind === 'turn' ? undefined : persistedWaiting(inner);
    },
    storable: own === undefined ? { reason: NOT_STORABLE } : true,
    ...(own === undefined
      ? {}
      : {
          withInDoubtRequests: (persisted, journal) => {
            const { snapshot, inDoubt, runId } = own.stored.withInDoubtRequests(check(persisted).snapshot, journal);
            const turn = { persisted: { kind: 'nested' as const, speaker: name, snapshot: snapshot as GroupChatSnapshot }, inDoubt };
            return runId === undefined ? turn : { ...turn, runId };
          },
        }),
  };
}

const NOT_STORABLE =
  'it is a group chat written by hand (not made by createGroupChat), whose turns cannot checkpoint into the store nor journal their tools there';

function notStorable(name: string): ConfigurationError {
  return new ConfigurationError(`The nested chat "${name}" cannot take a turn in a chat kept in a store: ${NOT_STORABLE}.`, { name });
}

/** `persisted` as a wait inside this nested chat; a custom participant's wait is not one. */
function nestedWaiting(persisted: DelegatedTurnState, name: string) {
  if (persisted.kind !== 'nested') {
    throw new ChatSnapshotError(
      `The snapshot waits inside "${name}" as if it were a custom participant, but "${name}" is a nested group chat. Resume it with the chat that persisted it.`,
      { speaker: name },
    );
  }
  return persisted;
}
