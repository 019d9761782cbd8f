import { Subject } from 'rxjs';
import { ReplaySubject } from 'rxjs';
import { deferredState } from '../agent/run/deferredAgentRun.js';
import { ChatNotWaitingError } from '../groupChat/groupChatErrors.js';
import type { ChatEvent, GroupChatResult, GroupChatRun } from '../groupChat/groupChatTypes.js';

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
  const controller = new AbortController();
  const abort = () => controller.abort();
  if (userSignal?.aborted) abort();
  else userSignal?.addEventListener('abort', abort, { once: true });
  const events = new Subject<ChatEvent>();
  const started = new ReplaySubject<GroupChatRun>(1);
  let inner: GroupChatRun | undefined;
  const result: Promise<GroupChatResult> = (async () => {
    try {
      const startChat = await prepare(controller.signal);
      inner = startChat();
      inner.events$.subscribe(events);
    } catch (error) {
      events.error(error);
      started.error(error);
      throw error;
    } finally {
      userSignal?.removeEventListener('abort', abort);
    }
    started.next(inner);
    started.complete();
    return inner.result;
  })();
  void result.catch(() => {});
  const running = (what: string): GroupChatRun => {
    if (inner !== undefined) return inner;
    throw new ChatNotWaitingError(`The chat is still being loaded from its store: call ${what} after its first event.`, {});
  };
  const state = deferredState(() => inner as never, started as never, initialState);
  return {
    chatId,
    events$: events.asObservable(),
    result,
    state,
    abort: () => (inner ? inner.abort() : abort()),
    say: (text, options) => running('say()').say(text, options),
    approve: (id) => running('approve()').approve(id),
    reject: (id, reason) => running('reject()').reject(id, reason),
    select: (speaker) => running('select()').select(speaker),
    waiting: () => inner?.waiting(),
    snapshot: () => running('snapshot()').snapshot(),
  };
}
