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

/** What the model caller sends its parent. */
export type ModelCallerEvent =
  | { type: 'model.delta'; kind: 'text' | 'reasoning'; text: string }
  | { type: 'model.malformed'; reason: MalformedReplyReason; message: string }
  | { type: 'model.reply'; reply: ModelReply }
  | { type: 'model.failed'; error: unknown };

/**
 * The agent's model caller: one actor per run that makes each model call it is
 * asked for. Text and reasoning deltas are relayed as they stream in; the
 * whole reply (text, tool calls, usage) follows as one `model.reply`, so a
 * reply costs the agent one event, not one per stream event. Stopping the
 * actor (an abort) unsubscribes, which aborts the request.
 */
export const modelCallerActor = fromCallback<CallModelCommand>(({ sendBack, receive }) => {
  let subscription: Subscription | undefined;
  receive((command) => {
    subscription?.unsubscribe();
    const reply: ModelReply = { text: '', reasoning: '', toolCalls: [] };
    subscription = command.model.stream(command.request).subscribe({
      next: (event: ModelEvent) => {
        switch (event.type) {
          case 'text-delta':
            reply.text += event.text;
            sendBack({ type: 'model.delta', kind: 'text', text: event.text } satisfies ModelCallerEvent);
            return;
          case 'reasoning-delta':
            reply.reasoning += event.text;
            sendBack({ type: 'model.delta', kind: 'reasoning', text: event.text } satisfies ModelCallerEvent);
            return;
          case 'tool-call':
            reply.toolCalls.push(event.call);
            return;
          case 'usage':
            reply.usage = reply.usage === undefined ? event.usage : addUsage(reply.usage, event.usage);
            return;
          case 'finish':
            reply.finishReason = event.reason;
            return;
          case 'malformed-reply':
            // The provider asks again within the request: the step counts as an error (see `stepFailed`).
            reply.malformed = (reply.malformed ?? 0) + 1;
            sendBack({ type: 'model.malformed', reason: event.reason, message: event.message } satisfies ModelCallerEvent);
            return;
        }
      },
      error: (error: unknown) => sendBack({ type: 'model.failed', error } satisfies ModelCallerEvent),
      complete: () => sendBack({ type: 'model.reply', reply } satisfies ModelCallerEvent),
    });
  });
  return () => subscription?.unsubscribe();
});
