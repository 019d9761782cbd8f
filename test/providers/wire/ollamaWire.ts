import { type WireProtocol, type WireServer, type WireTurn, startWireServer } from './wireServer.js';

const CREATED_AT = '2026-01-01T00:00:00.000Z';

/**
 * Ollama's native `/api/chat` streaming protocol as its API documentation
 * describes it: NDJSON, one object per line, `message.thinking` and
 * `message.content` pieces, tool calls whole (arguments as objects, no ids),
 * and a last object with `done: true`, `done_reason` and the token counts.
 * Errors are JSON `{ "error": "..." }` with an HTTP status.
 */
export const ollamaProtocol: WireProtocol = {
  contentType: 'application/x-ndjson',
  answerOther(request, response) {
    if (request.method === 'GET' && request.path === '/api/version') {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ version: '0.12.0' }));
      return true;
    }
    return false;
  },
  frames(turn, request) {
    const model = (request.body as { model: string }).model;
    const chunk = (message: Record<string, unknown>, extra: Record<string, unknown> = { done: false }) =>
      `${JSON.stringify({ model, created_at: CREATED_AT, message: { role: 'assistant', content: '', ...message }, ...extra })}\n`;
    const frames = [
      ...(turn.reasoning ?? []).map((thinking) => chunk({ thinking })),
      ...(turn.text ?? []).map((content) => chunk({ content })),
    ];
    if (turn.toolCalls && turn.toolCalls.length > 0) {
      frames.push(chunk({ tool_calls: turn.toolCalls.map((call) => ({ function: { name: call.name, arguments: call.arguments ?? {} } })) }));
    }
    frames.push(
      chunk(
        {},
        {
          done: true,
          done_reason: turn.finish ?? 'stop',
          total_duration: 1_000_000,
          load_duration: 1_000,
          prompt_eval_count: turn.usage?.input ?? 0,
          prompt_eval_duration: 1_000,
          eval_count: turn.usage?.output ?? 0,
          eval_duration: 1_000,
        },
      ),
    );
    return frames;
  },
  errorBody: (turn) => turn.httpError?.body,
};

/** A local Ollama look-alike on a free port. */
export const startOllamaServer = (): Promise<WireServer> => startWireServer(ollamaProtocol);

/** Ollama's answer to a model it does not have. */
export const ollamaModelNotFound = (model: string): WireTurn => ({
  httpError: { status: 404, body: { error: `model "${model}" not found, try pulling it first` } },
});
