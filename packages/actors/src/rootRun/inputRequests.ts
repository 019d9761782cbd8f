import { randomUUID } from 'node:crypto';
import { InputAnswerError, type RunEvent, type ToolInputAnswer, type ToolInputRequest, type ToolProgress } from '@agentchart/core';

/** A running call's question that waits for the person whose run it is (see `ctx.requestInput`). */
export interface PendingInput {
  /** The id to pass to `run.answer`. */
  readonly id: string;
  readonly runId: string;
  readonly callId: string;
  readonly toolName: string;
  readonly message: string;
  readonly requestedSchema: Readonly<Record<string, unknown>>;
}

/**
 * What a call's progress report carries when it is about a question
 * instead: a question travels the progress channel, so every path that
 * relays a call's progress (a batch, a chat's turn) relays it,
 * and the run emits `input.requested` / `input.answered` for it.
 */
export type InputNotice =
  | { kind: 'requested'; id: string; message: string; requestedSchema: Readonly<Record<string, unknown>> }
  | { kind: 'answered'; id: string; action: ToolInputAnswer['action'] };

/** A progress report that carries an `InputNotice`. */
export type InputProgress = ToolProgress & { input: InputNotice };

/** True for a progress report that carries a question or its answer. */
export function isInputProgress(progress: ToolProgress): progress is InputProgress {
  return 'input' in progress;
}

/**
 * The run event of a notice: `input.requested` or `input.answered`.
 *
 * @example
 * inputEvent({ runId, agent, step, callId, toolName }, progress.input); // { type: 'input.requested', ... }
 */
export function inputEvent(at: { runId: string; agent: string; step: number; callId: string; toolName: string }, notice: InputNotice): RunEvent {
  if (notice.kind === 'answered') return { type: 'input.answered', ...at, id: notice.id, action: notice.action };
  return { type: 'input.requested', ...at, id: notice.id, message: notice.message, requestedSchema: { ...notice.requestedSchema } };
}

interface Waiting extends PendingInput {
  readonly check: ToolInputRequest['check'];
  resolve(answer: ToolInputAnswer): void;
}

/** Every question of this process that waits for an answer, by id (ids are random: one cannot be guessed). */
const waiting = new Map<string, Waiting>();

/**
 * Asks the person of `call`'s run: the question is announced through
 * `notify` (the call's progress channel), waits until `answerInput` gives
 * an answer, and is cancelled when `signal` aborts (the run ended).
 *
 * @example
 * const answer = await askPerson({ runId, callId, toolName }, { message: 'Which branch?', requestedSchema }, signal, notify);
 */
export function askPerson(
  call: { runId: string; callId: string; toolName: string },
  request: ToolInputRequest,
  signal: AbortSignal,
  notify: (progress: InputProgress) => void,
): Promise<ToolInputAnswer> {
  const id = `input_${randomUUID()}`;
  const message = String(request.message);
  const requestedSchema = typeof request.requestedSchema === 'object' && request.requestedSchema !== null ? request.requestedSchema : {};
  return new Promise<ToolInputAnswer>((resolve) => {
    const settle = (answer: ToolInputAnswer) => {
      if (!waiting.delete(id)) return;
      signal.removeEventListener('abort', onAbort);
      notify({ progress: 0, input: { kind: 'answered', id, action: answer.action } });
      resolve(answer);
    };
    const onAbort = () => settle({ action: 'cancel' });
    waiting.set(id, { id, ...call, message, requestedSchema, check: request.check, resolve: settle });
    notify({ progress: 0, input: { kind: 'requested', id, message, requestedSchema } });
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
  });
}

/**
 * Gives a person's answer to the question `id`, when `owns` says its run is
 * the caller's: `{ action: 'accept', content }` (checked by the question's
 * own check), `{ action: 'decline' }` or `{ action: 'cancel' }`. Throws
 * `InputAnswerError` otherwise; the question still waits.
 *
 * @example
 * answerInput(event.id, { action: 'accept', content: { branch: 'main' } }, (runId) => runId === run.runId);
 */
export function answerInput(id: string, answer: unknown, owns: (runId: string) => boolean): void {
  const question = typeof id === 'string' ? waiting.get(id) : undefined;
  if (question === undefined || !owns(question.runId)) {
    const pending = pendingInputs(owns).map((one) => one.id);
    throw new InputAnswerError(
      'INPUT_NOT_PENDING',
      String(id),
      pending.length > 0
        ? `no question of this run has that id. Pending: ${pending.join(', ')}.`
        : 'the run waits for no input (read run.pendingInputs).',
      { pending },
    );
  }
  question.resolve(checkedAnswer(question, answer));
}

/** The questions waiting for an answer whose runs `owns` accepts. */
export function pendingInputs(owns: (runId: string) => boolean): PendingInput[] {
  const found: PendingInput[] = [];
  for (const { id, runId, callId, toolName, message, requestedSchema } of waiting.values()) {
    if (owns(runId)) found.push({ id, runId, callId, toolName, message, requestedSchema });
  }
  return found;
}

function checkedAnswer(question: Waiting, answer: unknown): ToolInputAnswer {
  const refuse = (problem: string): never => {
    throw new InputAnswerError('INPUT_ANSWER_INVALID', question.id, problem, { requestedSchema: question.requestedSchema });
  };
  if (typeof answer !== 'object' || answer === null)
    return refuse("give { action: 'accept', content }, { action: 'decline' } or { action: 'cancel' }.");
  const { action, content } = answer as { action?: unknown; content?: unknown };
  if (action === 'decline' || action === 'cancel') return { action };
  if (action !== 'accept') return refuse(`the action must be 'accept', 'decline' or 'cancel' (got ${JSON.stringify(action) ?? String(action)}).`);
  if (typeof content !== 'object' || content === null || Array.isArray(content)) return refuse('an accepted answer needs `content`, an object.');
  const problem = question.check?.(content as Record<string, unknown>);
  if (problem !== undefined) return refuse(`the content does not match the requested schema: ${problem}. Answer again.`);
  return { action, content: { ...(content as Record<string, unknown>) } };
}
