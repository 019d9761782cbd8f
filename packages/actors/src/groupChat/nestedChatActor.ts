import type { AssistantMessage, Message, TokenBudgetOption } from '@agentchart/core';
import { type AnyActorRef, fromPromise } from 'xstate';
import type { InspectOption } from '../inspection/inspectOption.js';
import type { ChatRuntime } from './chatRuntime.js';
import { replyText } from './chatViews.js';
import { ChatSnapshotError } from './groupChatErrors.js';
import type {
  ChatEvent,
  ChatTurn,
  GroupChatResult,
  GroupChatRun,
  GroupChatSnapshot,
  NestedChatParticipant,
  PersistedNestedWaiting,
} from './groupChatTypes.js';

export interface NestedChatInput {
  chat: NestedChatParticipant;
  messages: Message[];
  /** The outer run's `inspect` option: it sees the nested chat's actors too. */
  inspect: InspectOption | undefined;
  /** Bridges the nested chat's events onto the outer chat's bus. */
  forward: (event: ChatEvent) => void;
  /** A persisted run of the nested chat to continue instead of a new run on `messages`. */
  resume?: GroupChatSnapshot | undefined;
  /** What is left of the outer chat's token budget. */
  maxTokens?: TokenBudgetOption | undefined;
}

/** A chat's transcript: its messages and the turns among them. */
export type Transcript = Pick<GroupChatResult, 'messages' | 'turns'>;

/** The nested chats' runs, by the actor running each: how the outer handle reaches a person inside. */
const nestedRuns = new WeakMap<AnyActorRef, GroupChatRun>();

/** How each chat made by `createGroupChat` checks a snapshot of its own (everything its `resume` checks), by chat. */
const snapshotChecks = new WeakMap<NestedChatParticipant, (snapshot: unknown) => GroupChatSnapshot>();

/** Lets a chat that `chat` takes part in check a wait persisted inside it, as `chat.resume` would (see `checkNestedWaiting`). */
export function registerSnapshotCheck(chat: NestedChatParticipant, check: (snapshot: unknown) => GroupChatSnapshot): void {
  snapshotChecks.set(chat, check);
}

/** Each run's transcript as it stands (a turn in progress included, as a partial turn). */
const transcripts = new WeakMap<GroupChatRun, () => Transcript>();

/** Makes `run`'s transcript so far readable by a chat it takes part in (see `nestedTranscriptOf`). */
export function registerTranscript(run: GroupChatRun, transcript: () => Transcript): void {
  transcripts.set(run, transcript);
}

/**
 * The transcript so far of the nested chat that `actor` runs (its turn in
 * progress included, as a partial turn): what an outer chat aborted during
 * the nested chat's turn keeps of it.
 *
 * @example
 * const soFar = nestedTranscriptOf(managerSnapshot.children.speaker); // { messages, turns } | undefined
 */
export function nestedTranscriptOf(actor: AnyActorRef | undefined): Transcript | undefined {
  const run = nestedRunOf(actor);
  return run === undefined ? undefined : transcripts.get(run)?.();
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
 * A group chat taking its turn in another chat, as an actor: it runs the
 * nested chat on the speaker's view (in its own actor system, with its own
 * shared state, seen by the outer run's `inspect`) and outputs its result.
 * While it runs, its handle is found with `nestedRunOf(actor)`. Stopping the
 * actor aborts the chat.
 */
export const nestedChatActor = fromPromise<GroupChatResult, NestedChatInput>(async ({ input, signal, self }) => {
  const { chat, resume, inspect } = input;
  // The outer view names the outer chat's speakers, who are not the nested chat's participants: context for it.
  const run =
    resume !== undefined && chat.resume !== undefined
      ? chat.resume(resume, { signal, inspect })
      : chat.run(input.messages, {
          signal,
          inspect,
          unknownSpeakers: 'context',
          ...(input.maxTokens === undefined ? {} : { maxTokens: input.maxTokens }),
        });
  nestedRuns.set(self, run);
  const subscription = run.events$.subscribe(input.forward);
  try {
    return await run.result;
  } finally {
    subscription.unsubscribe();
    nestedRuns.delete(self);
  }
});

/**
 * The run of the nested chat that `actor` (a `nestedChatActor`) runs now, if
 * any: the outer chat's handle reports its waits and hands it a person's
 * `say`, `select`, `approve` and `reject`.
 *
 * @example
 * const inner = nestedRunOf(managerSnapshot.children.speaker); // inner?.waiting()
 */
export function nestedRunOf(actor: AnyActorRef | undefined): GroupChatRun | undefined {
  return actor === undefined ? undefined : nestedRuns.get(actor);
}

/**
 * Checks a persisted wait inside a nested chat before the outer chat resumes
 * it: the speaker is a nested chat of `runtime` that can resume, and (for a
 * chat made by `createGroupChat`) the inner snapshot is one its `resume`
 * takes. Throws `ChatSnapshotError` (or, for an agent's run inside,
 * `RunSnapshotError`) otherwise.
 *
 * @example
 * const waiting = checkNestedWaiting(snapshot.waiting, runtime); // { kind: 'nested', speaker: 'review_team', snapshot }
 */
export function checkNestedWaiting(waiting: PersistedNestedWaiting, runtime: ChatRuntime): PersistedNestedWaiting {
  const member = runtime.members.get(waiting.speaker);
  if (member?.kind !== 'chat' || member.chat.resume === undefined) {
    throw new ChatSnapshotError(
      `The snapshot waits inside "${waiting.speaker}", which is not a nested group chat of this chat that can resume. Resume it with the chat that persisted it.`,
      { speaker: waiting.speaker },
    );
  }
  const check = snapshotChecks.get(member.chat);
  if (check === undefined) return waiting;
  try {
    return { ...waiting, snapshot: check(waiting.snapshot) };
  } catch (error) {
    if (!(error instanceof ChatSnapshotError)) throw error;
    throw new ChatSnapshotError(`Inside the nested chat "${waiting.speaker}": ${error.message}`, { ...error.details, within: waiting.speaker });
  }
}
