import type { AssistantMessage, Message } from '@agentchart/core';
import type { DelegatedProtocol, DelegatedTurn, TurnContext } from '../participant/participantProtocol.js';
import { replyText } from './chatViews.js';
import { ChatSnapshotError } from './groupChatErrors.js';
import type {
  ChatTurn,
  GroupChatResult,
  GroupChatRun,
  GroupChatRunOptions,
  GroupChatSnapshot,
  NestedChatParticipant,
  PersistedDelegatedWaiting,
} from './groupChatTypes.js';
import { persistedWaiting } from './persistedWaiting.js';

/** A chat's transcript: its messages and the turns among them. */
export type Transcript = Pick<GroupChatResult, 'messages' | 'turns'>;

/** A run of a chat with what only its own chat can read: its transcript as it stands (a turn in progress included, as a partial turn). */
export interface ChatRunStarted {
  run: GroupChatRun;
  transcriptSoFar(): Transcript;
}

/**
 * What a chat made by `createGroupChat` gives the chats it takes part in,
 * beyond its public `run` and `resume`: runs with their transcript so far,
 * and the check its `resume` makes of a snapshot.
 */
export interface OwnChatRuns {
  /** `chat.run`, with the run's transcript so far. */
  run(input: Message[], options: GroupChatRunOptions): ChatRunStarted;
  /** `chat.resume`, with the run's transcript so far. */
  resume(snapshot: unknown, options: Pick<GroupChatRunOptions, 'signal' | 'inspect'>): ChatRunStarted;
  /** Everything `chat.resume` checks of a snapshot (throws `ChatSnapshotError`); the copy it would resume from. */
  checkSnapshot(snapshot: unknown): GroupChatSnapshot;
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
 * (what an abort keeps of the turn) and the check of a persisted wait; a chat
 * written by hand has neither.
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
  const check = (persisted: PersistedDelegatedWaiting) => nestedWaiting(persisted, name);
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
      return turnOf(own === undefined ? { run: chat.run(view, options) } : own.run(view, options), context);
    },
    resume:
      typeof resume === 'function'
        ? (persisted, context) => {
            const { snapshot } = check(persisted);
            const options = { signal: context.signal, inspect: context.inspect };
            return turnOf(own === undefined ? { run: resume.call(chat, snapshot, options) } : own.resume(snapshot, options), context);
          }
        : undefined,
    checkPersisted: (persisted) => {
      const waiting = check(persisted);
      if (own === undefined) return waiting;
      try {
        return { ...waiting, snapshot: own.checkSnapshot(waiting.snapshot) };
      } catch (error) {
        if (!(error instanceof ChatSnapshotError)) throw error;
        throw new ChatSnapshotError(`Inside the nested chat "${name}": ${error.message}`, { ...error.details, within: name });
      }
    },
    persistedWaiting: (persisted) => persistedWaiting(check(persisted).snapshot.waiting),
  };
}

/** `persisted` as a wait inside this nested chat; a custom participant's wait is not one. */
function nestedWaiting(persisted: PersistedDelegatedWaiting, name: string) {
  if (persisted.kind !== 'nested') {
    throw new ChatSnapshotError(
      `The snapshot waits inside "${name}" as if it were a custom participant, but "${name}" is a nested group chat. Resume it with the chat that persisted it.`,
      { speaker: name },
    );
  }
  return persisted;
}
