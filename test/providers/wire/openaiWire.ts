import { type WireProtocol, type WireServer, type WireTurn, startWireServer } from './wireServer.js';

export interface OpenAIWireOptions {
  /** Leave `index` out of tool-call deltas, as some compatible servers do. */
  omitIndex?: boolean;
  /**
   * Which server this pretends to be (default `openai`):
   * - `vllm`: `/v1/models` owned_by `vllm` (vllm/entrypoints/openai/engine/protocol.py,
   *   `ModelCard.owned_by: str = "vllm"`; vllm/entrypoints/openai/protocol.py before the split);
   *   a named tool choice ends with `finish_reason: "stop"` (vllm/entrypoints/openai/chat_completion/
   *   serving.py, `chat_completion_stream_generator`: `"tool_calls"` only when
   *   `tools_streamed[i] and not tool_choice_function_name`, else the sampler's reason or `"stop"`;
   *   `required` gets `"tool_calls"`); a mid-stream error in older releases' shape
   *   `{"object":"error","message",...}` (vllm/entrypoints/openai/protocol.py `ErrorResponse`;
   *   engine/protocol.py now nests it as `{"error":{...}}`).
   * - `llama.cpp`: owned_by `llamacpp` (tools/server/server-context.cpp, the `/v1/models` route;
   *   tools/server/server-models.cpp in router mode); `tool_choice` read as a string only, so a
   *   named choice object is treated as `auto`: tools/server/server-common.cpp
   *   `oaicompat_chat_params_parse` reads it with `json_value(body, "tool_choice", std::string("auto"))`,
   *   and `json_value` (tools/server/server-common.h) logs "Wrong type supplied for parameter" and
   *   returns the default on a type error; common/chat.cpp `common_chat_tool_choice_parse_oaicompat`
   *   then knows only `auto`, `none` and `required`. The turn's `unconstrained` reply is played.
   * - `lmstudio`: as `llama.cpp`, owned_by `organization_owner`. LM Studio is closed source and its
   *   docs (lmstudio-ai/docs 1_developer/3_openai-compat/models.md) show no response body; the value
   *   is what LM Studio's `/v1/models` answers in captured responses. Its chat-completions page lists
   *   no `tool_choice` among the supported parameters, so the string-only behaviour is an assumption.
   * - `ollama`: Ollama's `/v1` (middleware/openai.go): owned_by `library`, reasoning in
   *   `delta.reasoning`, and a mid-stream error written as a bare JSON line without `data:`
   *   (`BaseWriter.writeError`).
   */
  profile?: 'openai' | 'vllm' | 'llama.cpp' | 'lmstudio' | 'ollama';
}

const OWNERS = { openai: 'system', vllm: 'vllm', 'llama.cpp': 'llamacpp', lmstudio: 'organization_owner', ollama: 'library' };

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
        const owner = OWNERS[options.profile ?? 'openai'];
        response.end(JSON.stringify({ object: 'list', data: [{ id: 'qwen3', object: 'model', created: 1767225600, owned_by: owner }] }));
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
      const body = request.body as { model: string; stream_options?: { include_usage?: boolean }; tool_choice?: unknown };
      const profile = options.profile ?? 'openai';
      const stringChoicesOnly = profile === 'llama.cpp' || profile === 'lmstudio';
      const namedChoice = typeof body.tool_choice === 'object' && body.tool_choice !== null;
      if (stringChoicesOnly && namedChoice && turn.unconstrained)
        turn = { ...turn, text: turn.unconstrained.text, toolCalls: turn.unconstrained.toolCalls };
      const reasoningField = profile === 'ollama' ? 'reasoning' : 'reasoning_content';
      const event = (choices: unknown[], extra: Record<string, unknown> = {}) =>
        `data: ${JSON.stringify({ id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1767225600, model: body.model, choices, ...extra })}\n\n`;
      const delta = (value: Record<string, unknown>, finishReason: string | null = null) =>
        event([{ index: 0, delta: value, logprobs: null, finish_reason: finishReason }]);
      const withIndex = (index: number, value: Record<string, unknown>) => (options.omitIndex ? value : { index, ...value });

      const frames = [delta({ role: 'assistant', content: '' })];
      for (const piece of turn.reasoning ?? []) frames.push(delta({ [reasoningField]: piece }));
      for (const piece of turn.text ?? []) frames.push(delta({ content: piece }));
      if (turn.refusal !== undefined) {
        return [...frames, delta({ refusal: turn.refusal }), delta({}, 'stop'), 'data: [DONE]\n\n'];
      }
      if (turn.midStreamError !== undefined) {
        const message = turn.midStreamError;
        if (profile === 'ollama') return [...frames, `${JSON.stringify({ error: { message, type: 'api_error', param: null, code: null } })}\n`];
        if (profile === 'vllm')
          return [...frames, `data: ${JSON.stringify({ object: 'error', message, type: 'BadRequestError', param: null, code: 400 })}\n\n`];
        return [...frames, `data: ${JSON.stringify({ error: { message, type: 'server_error', code: null } })}\n\n`];
      }
      (turn.toolCalls ?? []).forEach((call, index) => {
        const text = call.argumentsText ?? JSON.stringify(call.arguments ?? {});
        const half = Math.ceil(text.length / 2);
        frames.push(
          delta({
            tool_calls: [withIndex(index, { id: call.id ?? `call_${index}`, type: 'function', function: { name: call.name, arguments: '' } })],
          }),
          delta({ tool_calls: [withIndex(index, { function: { arguments: text.slice(0, half) } })] }),
          delta({ tool_calls: [withIndex(index, { function: { arguments: text.slice(half) } })] }),
        );
      });
      const calls = (turn.toolCalls ?? []).length > 0;
      const namedStop = profile === 'vllm' && namedChoice;
      frames.push(delta({}, turn.finish ?? (calls && !namedStop ? 'tool_calls' : 'stop')));
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
    body: {
      error: {
        message: `The model \`${model}\` does not exist or you do not have access to it.`,
        type: 'invalid_request_error',
        param: null,
        code: 'model_not_found',
      },
    },
  },
});
