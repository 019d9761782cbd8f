import { AbortedError, AgentchartError, type ModelEvent } from '@agentchart/core';
import { Observable } from 'rxjs';

/**
 * Turns a provider's async event generator into the cold Observable a
 * ChatModel returns. Each subscription gets its own AbortController, tied to
 * the request's signal; unsubscribing or aborting the signal aborts the HTTP
 * request (which closes its connection). An abort ends the stream with an
 * `AbortedError`; agentchart errors pass as they are; any other failure
 * goes through `toModelError`.
 *
 * @example
 * return modelEventStream(request.signal, (signal) => generateEvents(signal), mapError);
 */
export function modelEventStream(
  requestSignal: AbortSignal | undefined,
  produce: (signal: AbortSignal) => AsyncIterable<ModelEvent>,
  toModelError: (error: unknown) => Error,
): Observable<ModelEvent> {
  return new Observable<ModelEvent>((subscriber) => {
    const controller = new AbortController();
    const abort = () => controller.abort(requestSignal?.reason);
    if (requestSignal?.aborted) {
      subscriber.error(new AbortedError('The model request was aborted before it was sent.'));
      return undefined;
    }
    requestSignal?.addEventListener('abort', abort, { once: true });

    const pump = async () => {
      try {
        for await (const event of produce(controller.signal)) {
          if (subscriber.closed) return;
          subscriber.next(event);
        }
        if (controller.signal.aborted) throw new AbortedError('The model request was aborted.');
        subscriber.complete();
      } catch (error) {
        if (subscriber.closed) return;
        if (controller.signal.aborted) subscriber.error(new AbortedError('The model request was aborted.'));
        else subscriber.error(error instanceof AgentchartError ? error : toModelError(error));
      }
    };
    void pump();

    return () => {
      requestSignal?.removeEventListener('abort', abort);
      controller.abort();
    };
  });
}
