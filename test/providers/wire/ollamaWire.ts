import { type WireProtocol, type WireServer, type WireToolCall, type WireTurn, startWireServer } from './wireServer.js';

const CREATED_AT = '2026-01-01T00:00:00.000Z';

/** How the fake Ollama behaves: which version it is, and what kind of model it serves. */
export interface OllamaWireOptions {
  /**
   * What `/api/version` says, and which version-dependent behaviours apply
   * (default '0.12.0'); `null`: `/api/version` answers 404, as behind a proxy
   * that forwards only `/api/chat` (behaviours then as 0.12.0).
   */
  version?: string | null;
  /**
   * The model is a parser-based thinking model (qwen3, gemma4, gpt-oss): `format`
   * applies only as server/routes.go allows (see `formatApplies`).
   */
  thinkingModel?: boolean;
  /**
   * Tool calls arrive on the `done` chunk, as the built-in parsers flush them
   * (server/routes.go ChatHandler: `builtinParser.Add(r.Content, r.Done)`
   * returns the calls with the last piece; llama-server mode does the same).
   */
  callsOnDone?: boolean;
}

/** From this version the server gives each call an id (server/routes.go: `toolCalls[i].ID = toolCallId()`) and its index. */
const IDS_SINCE = '0.12.10';
/** From this version `think: false` keeps `format` on parser-based thinking models (ollama#14645, #15260). */
const THINK_FALSE_FORMAT_SINCE = '0.31.2';

/**
 * Ollama's native `/api/chat` streaming protocol, as server/routes.go
 * (ChatHandler, streamResponse) and api/types.go (ChatResponse, Message,
 * ToolCall) write it: NDJSON, one object per line, `message.thinking` and
 * `message.content` pieces, tool calls whole (arguments as objects; `id`
 * and `function.index` since 0.12.10), and a last object with `done: true`,
 * `done_reason` and the token counts. Errors before the stream are JSON
 * `{ "error": "..." }` with an HTTP status; errors during it are an
 * `{ "error": "..." }` line (ChatHandler: `ch <- gin.H{"error": err.Error()}`),
 * which is also how a built-in tool parser reports a call it cannot read.
 */
export function ollamaProtocol(options: OllamaWireOptions = {}): WireProtocol {
  const version = options.version ?? '0.12.0';
  const hidden = options.version === null;
  return {
    contentType: 'application/x-ndjson',
    answerOther(request, response) {
      if (request.method === 'GET' && request.path === '/api/version') {
        response.writeHead(hidden ? 404 : 200, { 'content-type': 'application/json' });
        response.end(JSON.stringify(hidden ? { error: 'not found' } : { version }));
        return true;
      }
      return false;
    },
    frames(turn, request) {
      const body = request.body as { model: string; format?: unknown; think?: unknown };
      const chunk = (message: Record<string, unknown>, extra: Record<string, unknown> = { done: false }) =>
        `${JSON.stringify({ model: body.model, created_at: CREATED_AT, message: { role: 'assistant', content: '', ...message }, ...extra })}\n`;
      const constrained = body.format === undefined || !options.thinkingModel || formatApplies(version, body.think, turn);
      const text = constrained || !turn.unconstrained ? turn.text : turn.unconstrained.text;
      const toolCalls = constrained || !turn.unconstrained ? turn.toolCalls : turn.unconstrained.toolCalls;
      const frames = [...(turn.reasoning ?? []).map((thinking) => chunk({ thinking })), ...(text ?? []).map((content) => chunk({ content }))];
      if (turn.parserError !== undefined) return [...frames, `${JSON.stringify({ error: turn.parserError })}\n`];
      if (turn.midStreamError !== undefined) return [...frames, `${JSON.stringify({ error: turn.midStreamError })}\n`];
      const calls = toolCalls && toolCalls.length > 0 ? { tool_calls: toolCalls.map((call, index) => nativeCall(call, index, version)) } : undefined;
      if (calls && !options.callsOnDone) frames.push(chunk(calls));
      frames.push(
        chunk(calls && options.callsOnDone ? calls : {}, {
          done: true,
          done_reason: turn.finish ?? 'stop',
          total_duration: 1_000_000,
          load_duration: 1_000,
          prompt_eval_count: turn.usage?.input ?? 0,
          prompt_eval_duration: 1_000,
          eval_count: turn.usage?.output ?? 0,
          eval_duration: 1_000,
        }),
      );
      return frames;
    },
    errorBody: (turn) => turn.httpError?.body,
  };
}

/**
 * Whether a thinking model's output is constrained by `format`
 * (server/routes.go ChatHandler, `structuredOutputsState`): with thinking on,
 * the grammar starts only after the thinking ends, and never when there was
 * none; `think: false` applies it from the start since 0.31.2, and made the
 * server ignore it before.
 */
function formatApplies(version: string, think: unknown, turn: WireTurn): boolean {
  if (think === false) return atLeast(version, THINK_FALSE_FORMAT_SINCE);
  return (turn.reasoning ?? []).join('') !== '';
}

function nativeCall(call: WireToolCall, index: number, version: string): Record<string, unknown> {
  const fn = { name: call.name, arguments: call.arguments ?? {} };
  if (!atLeast(version, IDS_SINCE)) return { function: fn };
  return { id: call.id ?? `call_${index}${'abcdefgh'.slice(index)}`.slice(0, 13), function: { index, ...fn } };
}

/** Numeric dotted-version comparison: `a >= b`. */
export function atLeast(a: string, b: string): boolean {
  const left = a.split('.').map(Number);
  const right = b.split('.').map(Number);
  for (let index = 0; index < 3; index++) {
    if ((left[index] ?? 0) !== (right[index] ?? 0)) return (left[index] ?? 0) > (right[index] ?? 0);
  }
  return true;
}

/** A local Ollama look-alike on a free port. */
export const startOllamaServer = (options?: OllamaWireOptions): Promise<WireServer> => startWireServer(ollamaProtocol(options));

/** Ollama's answer to a model it does not have. */
export const ollamaModelNotFound = (model: string): WireTurn => ({
  httpError: { status: 404, body: { error: `model "${model}" not found, try pulling it first` } },
});
