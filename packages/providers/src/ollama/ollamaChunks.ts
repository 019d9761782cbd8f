import type { OllamaChunk } from './ollamaReplyEvents.js';
import { type TransportErrors, invalidResponseError } from '../transport/transportErrors.js';

/**
 * Ollama's built-in tool parsers (qwen3, qwen3-coder, gemma, llama-server
 * mode) report a tool call they cannot read as a mid-stream `{"error": …}`
 * line (server/routes.go, ChatHandler: `builtinParser.Add` → `ch <- gin.H{"error": err.Error()}`);
 * their messages say what failed to parse.
 */
const PARSER_ERROR = /failed to parse|parse (?:the )?(?:tool|json)|invalid (?:tool call|json)|unexpected end of json|tool call/i;

/** The model wrote a tool call the server could not read (a parser-error line). */
export class ToolCallParseFailure extends Error {
  constructor(readonly serverMessage: string) {
    super(serverMessage);
    this.name = 'ToolCallParseFailure';
  }
}

/**
 * The chunks of an `/api/chat` stream from its lines: blank lines skipped,
 * each other line one JSON object. A line that is not JSON is
 * MODEL_RESPONSE_INVALID quoting its start (nothing is printed); an
 * `{"error": …}` line is a parser failure (`ToolCallParseFailure`) or the
 * server's error mid-stream (MODEL_STREAM_INTERRUPTED).
 *
 * @example
 * for await (const chunk of ollamaChunks(boundedLines(body, limits, errors), errors)) ...
 */
export async function* ollamaChunks(lines: AsyncIterable<string>, errors: TransportErrors): AsyncGenerator<OllamaChunk> {
  for await (const line of lines) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      throw invalidResponseError(errors, 'a stream line that is not JSON', line);
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      throw invalidResponseError(errors, 'a stream line that is not a JSON object', line);
    }
    const error = (parsed as { error?: unknown }).error;
    if (error !== undefined && error !== null) {
      const message = typeof error === 'string' ? error : JSON.stringify(error);
      if (PARSER_ERROR.test(message)) throw new ToolCallParseFailure(message);
      throw errors.interrupted(message, new Error(message));
    }
    yield parsed as OllamaChunk;
  }
}
