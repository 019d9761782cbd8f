import type { ChatCompletionChunk } from 'openai/resources/chat/completions';
import type { SseEvent } from '../transport/sseEvents.js';
import { type TransportErrors, invalidResponseError } from '../transport/transportErrors.js';
import { serverErrorMessage } from './openaiErrors.js';

/**
 * The chat-completion chunks of an SSE stream, up to `data: [DONE]`. An
 * event that is not JSON is MODEL_RESPONSE_INVALID quoting its start; an
 * error object — `{ error: … }` (OpenAI, vLLM, llama.cpp) or older vLLM's
 * `{ object: "error", message }` — is the server's error mid-stream
 * (MODEL_STREAM_INTERRUPTED with its message).
 *
 * @example
 * for await (const chunk of openaiChunks(sseEvents(lines, max, errors), errors)) ...
 */
export async function* openaiChunks(events: AsyncIterable<SseEvent>, errors: TransportErrors): AsyncGenerator<ChatCompletionChunk> {
  for await (const { event, data } of events) {
    if (data === '[DONE]') return;
    let parsed: unknown;
    try {
      parsed = JSON.parse(data);
    } catch {
      throw invalidResponseError(errors, 'a stream event that is not JSON', data);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidResponseError(errors, 'a stream event that is not a JSON object', data);
    }
    const record = parsed as { error?: unknown; object?: unknown };
    if (event === 'error' || (record.error !== undefined && record.error !== null) || record.object === 'error') {
      const message = serverErrorMessage(parsed) ?? data;
      throw errors.interrupted(`the server reported an error: ${message}`, new Error(message));
    }
    yield parsed as ChatCompletionChunk;
  }
}

/**
 * Ollama's `/v1` writes an error mid-stream as a bare JSON line with no
 * `data:` (middleware/openai.go, `BaseWriter.writeError`): read as the
 * server's error, not as an invalid line.
 */
export function strayErrorLine(errors: TransportErrors): (line: string) => void {
  return (line) => {
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      return;
    }
    const message = typeof parsed === 'object' && parsed !== null && 'error' in parsed ? serverErrorMessage(parsed) : undefined;
    if (message !== undefined) throw errors.interrupted(`the server reported an error: ${message}`, new Error(message));
  };
}
