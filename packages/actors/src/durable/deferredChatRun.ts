import { deferredState } from '../agent/run/deferredAgentRun.js';
import { deferredStart } from '../agent/run/deferredStart.js';
import { ChatNotWaitingError } from '../groupChat/groupChatErrors.js';
import type { GroupChatResult } from '../groupChat/groupChatTypes.js';
import type { ChatEvent } from '../participant/chatEvent.js';
import type { GroupChatRun } from '../groupChat/groupChatRun.js';

/**
 * A `GroupChatRun` returned at once for a chat that needs asynchronous work
 * before its manager exists (the store creating or loading it). `prepare`
 * gets an abort signal and returns what starts the real chat (called at
 * once, so no event is missed). Until then there are no events, `abort()`
 * is remembered, `waiting()` is undefined and a person's answers throw
 * `ChatNotWaitingError` (wait for the first event). When `prepare` fails,
 * `result` rejects with its error and `events$` errors with it.
 *
 * @example
 * return deferredChatRun(chatId, async (signal) => { const start = await load(signal); return () => start().chat; }, options.signal);
 */
export function deferredChatRun(
  chatId: string,
  prepare: (signal: AbortSignal) => Promise<() => GroupChatRun>,
  userSignal: AbortSignal | undefined,
  initialState: Record<string, unknown> = {},
): GroupChatRun {
  const deferred = deferredStart<ChatEvent, GroupChatResult, GroupChatRun>(prepare, userSignal);
  const running = (what: string): GroupChatRun => {
    const inner = deferred.current();
    if (inner !== undefined) return inner;
    throw new ChatNotWaitingError(`The chat is still being loaded from its store: call ${what} after its first event.`, {});
  };
  const state = deferredState(deferred.current, deferred.started, initialState);
  return {
    chatId,
    events$: deferred.events$,
    result: deferred.result,
    state,
    abort: deferred.abort,
    say: (text, options) => running('say()').say(text, options),
    approve: (id) => running('approve()').approve(id),
    reject: (id, reason) => running('reject()').reject(id, reason),
    answer: (id, answer) => running('answer()').answer(id, answer),
    select: (speaker) => running('select()').select(speaker),
    waiting: () => deferred.current()?.waiting(),
    snapshot: () => running('snapshot()').snapshot(),
    get actor() {
      return running('`run.actor`').actor;
    },
  };
}
