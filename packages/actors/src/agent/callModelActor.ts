import type { ChatModel, ChatRequest, ModelEvent } from '@agentchart/core';
import { map } from 'rxjs';
import { fromEventObservable } from 'xstate';

/** The event the model actor sends its parent for each model event. */
export interface ModelStreamEvent {
  type: 'model.event';
  event: ModelEvent;
}

export interface CallModelInput {
  model: ChatModel;
  request: ChatRequest;
}

/**
 * One model call as an actor: the provider's stream, each event relayed to
 * the parent. Stopping the actor unsubscribes, which aborts the request.
 */
export const callModelActor = fromEventObservable<ModelStreamEvent, CallModelInput>(({ input }) =>
  input.model.stream(input.request).pipe(map((event): ModelStreamEvent => ({ type: 'model.event', event }))),
);
