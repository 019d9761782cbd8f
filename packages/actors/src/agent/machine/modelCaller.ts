import type { ChatModel, ChatRequest, FinishReason, MalformedReplyReason, ModelEvent, Usage } from '@agentchart/core';
import { addUsage } from '@agentchart/core/internal';
import type { Subscription } from 'rxjs';
import { fromCallback } from 'xstate';
import type { ReplyDraft } from './agentContext.js';

/** Asks the model caller to make one model call. */
export interface CallModelCommand {
  type: 'model.call';
  model: ChatModel;
  request: ChatRequest;
}

/** A finished model reply: the draft plus the usage it reported. */
export interface ModelReply extends ReplyDraft {
  usage?: Usage;
  /** Why the model stopped (absent when its stream ended without a `finish` event). */
  finishReason?: FinishReason;
}

/**
 * Adds one event of a model's stream to the reply being assembled (what the
 * caller reports of it, deltas and malformed replies, is the caller's own).
 * @example
 * const reply: ModelReply = { text: '', reasoning: '', toolCalls: [] };
 * addToReply(reply, { type: 'text-delta', text: 'Hi' }); // reply.text === 'Hi'
 */
export function addToReply(reply: ModelReply, event: ModelEvent): void {
  switch (event.type) {
    case 'text-delta':
      reply.text += event.text;
      return;
    case 'reasoning-delta':
      reply.reasoning += event.text;
      return;
    case 'tool-call':
      // The reply's list goes into the transcript: its first call makes a one-element list (most replies have
      // one call), where a push would give it room for 17 that the transcript would keep.
      if (reply.toolCalls.length === 0) reply.toolCalls = [event.call];
      else reply.toolCalls.push(event.call);
      return;
    case 'usage':
      reply.usage = reply.usage === undefined ? event.usage : addUsage(reply.usage, event.usage);
      return;
    case 'finish':
      reply.finishReason = event.reason;
      return;
    case 'malformed-reply':
      reply.malformed = (reply.malformed ?? 0) + 1;
      return;
  }
}

/** What the model caller sends its parent. */
export type ModelCallerEvent =
  | { type: 'model.delta'; kind: 'text' | 'reasoning'; text: string }
  | { type: 'model.malformed'; reason: MalformedReplyReason; message: string }
  | { type: 'model.reply'; reply: ModelReply }
  | { type: 'model.failed'; error: unknown };

/** Makes a run's model calls (see `modelCaller`). */
export interface ModelCaller {
  /** Makes the call a command asks for (a running call of the run is unsubscribed first). */
  call(command: CallModelCommand): void;
  /** The run ended: the call in flight is unsubscribed, which aborts the request. */
  stop(): void;
}

/**
 * A run's model caller: makes each model call it is asked for and tells the
 * agent through `sendBack`. Text and reasoning deltas are relayed as they
 * stream in; the whole reply (text, tool calls, usage) follows as one
 * `model.reply`, so a reply costs the agent one event, not one per stream
 * event. `stop` unsubscribes, which aborts the request. The agent runs it
 * as its `model` child actor (`modelCallerActor`).
 *
 * @example
 * const caller = modelCaller((event) => agent.send(event));
 * caller.call({ type: 'model.call', model, request });
 */
export function modelCaller(sendBack: (event: ModelCallerEvent) => void): ModelCaller {
  let subscription: Subscription | undefined;
  let stopped = false;
  return {
    call(command) {
      subscription?.unsubscribe();
      if (stopped) return;
      const reply: ModelReply = { text: '', reasoning: '', toolCalls: [] };
      subscription = command.model.stream(command.request).subscribe({
        next: (event: ModelEvent) => {
          // Stopped from a listener while a synchronous stream was still replying (the subscription was not returned yet).
          if (stopped) return;
          addToReply(reply, event);
          if (event.type === 'text-delta') sendBack({ type: 'model.delta', kind: 'text', text: event.text });
          else if (event.type === 'reasoning-delta') sendBack({ type: 'model.delta', kind: 'reasoning', text: event.text });
          // The provider asks again within the request: the step counts as an error (see `stepFailed`).
          else if (event.type === 'malformed-reply') sendBack({ type: 'model.malformed', reason: event.reason, message: event.message });
        },
        error: (error: unknown) => {
          if (!stopped) sendBack({ type: 'model.failed', error });
        },
        complete: () => {
          if (!stopped) sendBack({ type: 'model.reply', reply });
        },
      });
    },
    stop() {
      stopped = true;
      subscription?.unsubscribe();
    },
  };
}

/**
 * The model caller as the agent's resident `model` child actor (see
 * `modelCaller`): spawned with the run, it takes a `model.call` command per
 * step and sends the agent the reply. Stopping the actor (the run ends, an
 * abort) stops the caller.
 */
export const modelCallerActor = fromCallback<CallModelCommand>(({ sendBack, receive }) => {
  const caller = modelCaller(sendBack);
  receive((command) => caller.call(command));
  return () => caller.stop();
});
