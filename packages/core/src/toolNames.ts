import { ToolDefinitionError } from './errors.js';

/** The tool-name pattern that OpenAI, Ollama and most servers accept. */
export const TOOL_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Throws a `ToolDefinitionError` unless `name` matches `TOOL_NAME_PATTERN`.
 *
 * @example
 * assertValidToolName('get_weather'); // ok
 * assertValidToolName('get weather'); // throws
 */
export function assertValidToolName(name: string): void {
  if (typeof name !== 'string' || !TOOL_NAME_PATTERN.test(name)) {
    throw new ToolDefinitionError(
      `Tool name ${JSON.stringify(name)} is not accepted by model providers. ` +
        'Use 1 to 64 letters, digits, underscores or hyphens, e.g. "get_weather".',
      { name, pattern: TOOL_NAME_PATTERN.source },
    );
  }
}
