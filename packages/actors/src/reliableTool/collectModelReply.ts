import type { ChatModel, ChatRequest, ToolCall, Usage } from '@agentchart/core';
import { addUsage, zeroUsage } from '@agentchart/core/internal';

/** A whole model reply, assembled from its stream. */
export interface ModelReply {
  text: string;
  toolCalls: ToolCall[];
  usage: Usage;
}

/**
 * Sends one request and resolves with the whole reply. Aborting `signal`
 * unsubscribes from the stream (which cancels the request) and rejects.
 *
 * @example
 * const reply = await collectModelReply(model, { messages, tools: [], toolChoice: 'none' }, signal);
 */
export function collectModelReply(model: ChatModel, request: ChatRequest, signal: AbortSignal): Promise<ModelReply> {
  return new Promise<ModelReply>((resolve, reject) => {
    const reply: ModelReply = { text: '', toolCalls: [], usage: zeroUsage() };
    const onAbort = () => {
      subscription.unsubscribe();
      reject(signal.reason ?? new Error('The request was aborted.'));
    };
    const settle = () => signal.removeEventListener('abort', onAbort);
    const subscription = model.stream(request).subscribe({
      next: (event) => {
        if (event.type === 'text-delta') reply.text += event.text;
        else if (event.type === 'tool-call') reply.toolCalls.push(event.call);
        else if (event.type === 'usage') reply.usage = addUsage(reply.usage, event.usage);
      },
      error: (error: unknown) => {
        settle();
        reject(error);
      },
      complete: () => {
        settle();
        resolve(reply);
      },
    });
    if (signal.aborted) onAbort();
    else if (!subscription.closed) signal.addEventListener('abort', onAbort, { once: true });
  });
}
