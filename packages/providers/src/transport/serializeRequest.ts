import { AgentchartError, ModelError } from '@agentchart/core';

/**
 * The request body (built by `build`, which may serialise parts itself) as
 * JSON text, made before anything is sent: a body that
 * cannot be serialised (arguments nested thousands deep overflow the stack,
 * a cycle, a BigInt) is MODEL_REQUEST_INVALID naming the cause, never a
 * "broken stream" of a request that never left.
 *
 * @example
 * const text = serializeRequest(() => ({ model: 'qwen3', messages }), 'Ollama at http://127.0.0.1:11434');
 */
export function serializeRequest(build: () => unknown, where: string): string {
  try {
    return JSON.stringify(build());
  } catch (error) {
    if (error instanceof AgentchartError) throw error;
    const reason = error instanceof RangeError ? 'it is nested too deeply to serialise' : (error as Error).message;
    throw new ModelError(
      'MODEL_REQUEST_INVALID',
      `The request for ${where} could not be written as JSON (${reason}), so nothing was sent. ` +
        'A tool call or tool result in the transcript holds a value JSON cannot carry: find the tool that produced it and make it return plain data.',
      { where, cause: (error as Error).message },
      { cause: error },
    );
  }
}
