import { type WireProtocol, type WireServer, type WireTurn, startWireServer } from './wireServer.js';

export interface OpenAIWireOptions {
  /** Leave `index` out of tool-call deltas, as some compatible servers do. */
  omitIndex?: boolean;
}

/**
 * The chat-completions streaming protocol as OpenAI documents it: server-sent
 * events, each `data: <chat.completion.chunk>`; tool calls as deltas (id and
 * name first, then argument text in pieces) keyed by `index`; a chunk with
 * `finish_reason`; a usage chunk with empty `choices` when the request asked
 * for `stream_options.include_usage`; then `data: [DONE]`. Errors are JSON
 * `{ "error": { "message", "type", "code" } }` with an HTTP status.
 */
export function openaiProtocol(options: OpenAIWireOptions = {}): WireProtocol {
  return {
    contentType: 'text/event-stream',
    answerOther(request, response) {
      if (request.method === 'GET' && request.path === '/v1/models') {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ object: 'list', data: [{ id: 'qwen3', object: 'model', created: 1767225600, owned_by: 'system' }] }));
        return true;
      }
      if (request.method === 'GET') {
        response.writeHead(404, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: `no route ${request.path}`, type: 'invalid_request_error' } }));
        return true;
      }
      return false;
    },
    frames(turn, request) {
      const body = request.body as { model: string; stream_options?: { include_usage?: boolean } };
      const event = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1767225600, model: body.model, choices, ...extra })}\n\n`;
      const delta = (value: Record<string, unknown>, finishReason: string | null = null) =>
        event([{ index: 0, delta: value, logprobs: null, finish_reason: finishReason }]);
      const withIndex = (index: number, value: Record<string, unknown>) => (options.omitIndex ? value : { index, ...value });

      const frames = [delta({ role: 'assistant', content: '' })];
      for (const piece of turn.reasoning ?? []) frames.push(delta({ reasoning_content: piece }));
      for (const piece of turn.text ?? []) frames.push(delta({ content: piece }));
      (turn.toolCalls ?? []).forEach((call, index) => {
        const text = call.argumentsText ?? JSON.stringify(call.arguments ?? {});
        const half = Math.ceil(text.length / 2);
        frames.push(
          delta({ tool_calls: [withIndex(index, { id: call.id ?? `call_${index}`, type: 'function', function: { name: call.name, arguments: '' } })] }),
          delta({ tool_calls: [withIndex(index, { function: { arguments: text.slice(0, half) } })] }),
          delta({ tool_calls: [withIndex(index, { function: { arguments: text.slice(half) } })] }),
        );
      });
      const calls = (turn.toolCalls ?? []).length > 0;
      frames.push(delta({}, turn.finish ?? (calls ? 'tool_calls' : 'stop')));
      if (body.stream_options?.include_usage) {
        const usage = turn.usage ?? { input: 0, output: 0 };
        frames.push(
          event([], {
            usage: { prompt_tokens: usage.input, completion_tokens: usage.output, total_tokens: usage.input + usage.output },
          }),
        );
      }
      frames.push('data: [DONE]\n\n');
      return frames;
    },
    errorBody: (turn) => turn.httpError?.body,
  };
}

/** An OpenAI-compatible look-alike on a free port. */
export const startOpenAIServer = (options?: OpenAIWireOptions): Promise<WireServer> => startWireServer(openaiProtocol(options));

/** OpenAI's answer to a model it does not have. */
export const openaiModelNotFound = (model: string): WireTurn => ({
  httpError: {
    status: 404,
    body: { error: { message: `The model \`${model}\` does not exist or you do not have access to it.`, type: 'invalid_request_error', param: null, code: 'model_not_found' } },
  },
});
