import { type ChatModel, type ChatRequest, type ModelEvent, ModelError } from '@agentchart/core';
import { DBOS } from '@dbos-inc/dbos-sdk';
import { Observable } from 'rxjs';
import { workflowScope } from './workflowScope.js';

/** What one model call's step records: the events of the reply, and how it failed, if it did. */
interface RecordedReply {
  events: ModelEvent[];
  error?: { name: string; message: string; code?: string; details?: Record<string, unknown> };
}

/** The name of the model-call step in the workflow's history. */
export const MODEL_STEP_NAME = 'agentchart.model';

/**
 * Wraps a model so that, inside a chat workflow, every call is a DBOS step:
 * the reply (all its events, or its failure) is recorded in Postgres, and a
 * workflow that is recovered after a crash gets the recorded reply instead
 * of asking the model again. Outside a workflow the model is called as is.
 * Streaming is per reply: a step's events are delivered once the reply is
 * complete.
 *
 * @example
 * const writer = createAgent({ name: 'writer', model: durableModel(openaiModel({ model: 'gpt-4o-mini' })), middleware: [durableToolJournal()] });
 */
export function durableModel(model: ChatModel): ChatModel {
  return {
    provider: model.provider,
    modelName: model.modelName,
    stream(request: ChatRequest): Observable<ModelEvent> {
      const scope = workflowScope.getStore();
      if (scope === undefined) return model.stream(request);
      return new Observable<ModelEvent>((subscriber) => {
        let closed = false;
        const { signal: _signal, ...recordable } = request;
        // The writes beside the step (the ended turns' events, the journal's pending results) run
        // during the model call, and the step is recorded only once they are done: a recorded
        // reply implies its writes. They are no DBOS operations, so a replay numbers nothing else.
        const writes = scope.beforeStep();
        DBOS.runStep(
          async () => {
            const [reply] = await Promise.all([callModel(model, recordable), writes()]);
            return reply;
          },
          { name: MODEL_STEP_NAME },
        ).then(
          (reply) => {
            if (closed) return;
            const failure = scope.writeFailure();
            if (failure !== undefined) subscriber.error(failure);
            else {
              for (const event of reply.events) subscriber.next(event);
              if (reply.error === undefined) subscriber.complete();
              else subscriber.error(reviveError(reply.error));
            }
          },
          (error: unknown) => {
            if (!closed) subscriber.error(error);
          },
        );
        return () => {
          closed = true;
        };
      });
    },
  };
}

/** One model call, run to the end: its events, and its failure as plain data (so that it is recorded too). */
function callModel(model: ChatModel, request: ChatRequest): Promise<RecordedReply> {
  return new Promise((resolve) => {
    const events: ModelEvent[] = [];
    model.stream(request).subscribe({
      next: (event) => events.push(event),
      error: (error: unknown) => resolve({ events, error: errorData(error) }),
      complete: () => resolve({ events }),
    });
  });
}

function errorData(error: unknown): NonNullable<RecordedReply['error']> {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const { code, details } = error as { code?: unknown; details?: unknown };
  return {
    name: error.name,
    message: error.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof details === 'object' && details !== null ? { details: details as Record<string, unknown> } : {}),
  };
}

function reviveError(data: NonNullable<RecordedReply['error']>): Error {
  if (data.name === 'ModelError' && data.code !== undefined) {
    return new ModelError(data.code as ConstructorParameters<typeof ModelError>[0], data.message, data.details ?? {});
  }
  const error = new Error(data.message);
  error.name = data.name;
  return Object.assign(error, data.code === undefined ? {} : { code: data.code });
}
