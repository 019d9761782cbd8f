import { AgentchartError } from './errors.js';
import { exportedName } from './redaction/exportedName.js';

/**
 * A running tool's question for the person whose run it is
 * (`ctx.requestInput`): what to ask, and the JSON Schema of the answer. An
 * MCP server's input request (elicitation) reaches the person this way.
 */
export interface ToolInputRequest {
  /** What the person is asked (shown as is; credentials redacted). */
  message: string;
  /** The JSON Schema of an accepted answer's `content` (an object of strings, numbers, booleans and enums). */
  requestedSchema: Readonly<Record<string, unknown>>;
  /**
   * Checks an accepted answer's content, returning what is wrong (or
   * `undefined`): `run.answer` throws `InputAnswerError` with it, and the
   * person answers again. Absent: any object is accepted.
   */
  check?: (content: Record<string, unknown>) => string | undefined;
}

/** A person's answer to a `ToolInputRequest`: `accept` with the content, or `decline` / `cancel`. */
export type ToolInputAnswer = { action: 'accept'; content: Record<string, unknown> } | { action: 'decline' } | { action: 'cancel' };

/**
 * `run.answer(id, answer)` was refused: no question of the run has that id
 * (`INPUT_NOT_PENDING`), or the answer is not an answer to it
 * (`INPUT_ANSWER_INVALID`: `details.problem` says what is wrong; answer
 * again).
 */
export class InputAnswerError extends AgentchartError {
  constructor(code: 'INPUT_NOT_PENDING' | 'INPUT_ANSWER_INVALID', id: string, problem: string, details: Record<string, unknown> = {}) {
    super(code, `Cannot answer input request "${exportedName(id)}": ${problem}`, { id, problem, ...details });
  }
}
