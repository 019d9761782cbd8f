import { redactText } from './redaction/redactSecrets.js';
import { z } from 'zod';
import { MessageSchema, ToolCallSchema, UsageSchema } from './messages.js';

/**
 * Why a run ended.
 * - `completed`: the model answered without calling a tool.
 * - `max-steps`: the run reached `maxSteps` model calls.
 * - `aborted`: the run's signal was aborted (or `abort()` was called).
 * - `error`: the model failed, or a tool rule failed the run (see `error`).
 * - `terminal-tool`: a tool with a terminal rule ran.
 * - `max-tool-calls`: the run reached `maxToolCalls`; its last model call was made with tool choice `none`.
 * - `max-consecutive-errors`: `maxConsecutiveErrors` iterations in a row had failing tool calls or a
 *   reply the provider could not use (`model.malformed`); the last model call was made with tool choice `none`.
 * - `ended-by-middleware`: a function middleware called `endRun()`.
 * - `token-budget`: the usage reported so far reached the run's `maxTokens`; the run ended after the step
 *   (model call and its tool calls) that reached it.
 */
export const StopReasonSchema = z.enum([
  'completed',
  'max-steps',
  'aborted',
  'error',
  'max-tool-calls',
  'max-consecutive-errors',
  'ended-by-middleware',
  'terminal-tool',
  'token-budget',
]);
export type StopReason = z.infer<typeof StopReasonSchema>;

/** An error as it travels on events and in results: plain data. */
export const ErrorInfoSchema = z.object({
  name: z.string(),
  code: z.string().optional(),
  message: z.string(),
  /** The stack trace, where one is reported (tool errors on `events$`). */
  stack: z.string().optional(),
});
export type ErrorInfo = z.infer<typeof ErrorInfoSchema>;

const base = { runId: z.string(), agent: z.string() };

/**
 * Everything a run reports on `events$`, in the order it happens.
 *
 * A run starts with `run.started` and ends with exactly one `run.finished`.
 * Every message appended to the transcript is also reported as `message`.
 */
export const RunEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run.started'), ...base, input: z.array(MessageSchema) }),
  z.object({
    type: z.literal('model.request'),
    ...base,
    step: z.number().int(),
    tools: z.array(z.string()),
    toolChoice: z.unknown(),
    /** The model's name as its provider knows it (`ChatModel.modelName`). */
    model: z.string().optional(),
    /** The model's provider (`ChatModel.provider`). */
    provider: z.string().optional(),
  }),
  /** A model call's reply is complete: why the model stopped, and the usage it reported (absent when none). */
  z.object({
    type: z.literal('model.response'),
    ...base,
    step: z.number().int(),
    finishReason: z.enum(['stop', 'tool-calls', 'length', 'content-filter', 'other']),
    usage: UsageSchema.optional(),
  }),
  /**
   * The provider could not use the model's reply (a forced step answered without a call, or a tool call
   * the server could not read), told the model and asked once more within the same step. The step counts
   * as an error toward `maxConsecutiveErrors`, as a failing tool call does.
   */
  z.object({
    type: z.literal('model.malformed'),
    ...base,
    step: z.number().int(),
    reason: z.enum(['forced-call-missing', 'tool-call-unreadable']),
    /** What was wrong, as the provider saw it (no credentials; the model's text is not repeated). */
    message: z.string(),
  }),
  z.object({ type: z.literal('text.delta'), ...base, step: z.number().int(), text: z.string() }),
  z.object({ type: z.literal('reasoning.delta'), ...base, step: z.number().int(), text: z.string() }),
  z.object({ type: z.literal('usage'), ...base, step: z.number().int(), usage: UsageSchema }),
  z.object({ type: z.literal('message'), ...base, message: MessageSchema }),
  z.object({ type: z.literal('tool.call'), ...base, step: z.number().int(), call: ToolCallSchema }),
  z.object({
    type: z.literal('tool.result'),
    ...base,
    step: z.number().int(),
    callId: z.string(),
    toolName: z.string(),
    content: z.string(),
    isError: z.boolean(),
    /** The full error, when the tool threw (the model may see less). */
    error: ErrorInfoSchema.optional(),
  }),
  /**
   * A running tool reported how far it got (`ctx.reportProgress`; an MCP
   * tool's server sent a progress notification). Only between the call's
   * `tool.call` and its `tool.result`.
   */
  z.object({
    type: z.literal('tool.progress'),
    ...base,
    step: z.number().int(),
    callId: z.string(),
    toolName: z.string(),
    /** Grows with each report of the call. */
    progress: z.number(),
    /** What `progress` counts toward, when the tool knows. */
    total: z.number().optional(),
    /** What is happening now (at most 1,000 characters, credentials redacted). */
    message: z.string().optional(),
  }),
  /**
   * A running call asks the person whose run it is (`ctx.requestInput`; an
   * MCP server's input request): answer with `run.answer(id, answer)`. The
   * call waits until then.
   */
  z.object({
    type: z.literal('input.requested'),
    ...base,
    step: z.number().int(),
    /** The id to pass to `run.answer`. */
    id: z.string(),
    callId: z.string(),
    toolName: z.string(),
    /** What the person is asked. */
    message: z.string(),
    /** The JSON Schema of an accepted answer's `content`. */
    requestedSchema: z.record(z.string(), z.unknown()),
  }),
  /** The person answered an `input.requested` (or the run was aborted: `cancel`); the call goes on. */
  z.object({
    type: z.literal('input.answered'),
    ...base,
    step: z.number().int(),
    id: z.string(),
    callId: z.string(),
    toolName: z.string(),
    action: z.enum(['accept', 'decline', 'cancel']),
  }),
  z.object({
    type: z.literal('tools.changed'),
    ...base,
    step: z.number().int(),
    /** The call whose tool changed the list. */
    callId: z.string(),
    added: z.array(z.string()),
    removed: z.array(z.string()),
    /** The live tool list after the change; the model sees it from its next call. */
    tools: z.array(z.string()),
  }),
  z.object({
    type: z.literal('approval.requested'),
    ...base,
    step: z.number().int(),
    /** The id to pass to `approve` / `reject` (the call's id). */
    id: z.string(),
    toolName: z.string(),
    /** Absent for a call whose arguments were not valid JSON. */
    arguments: z.unknown().optional(),
  }),
  z.object({
    type: z.literal('approval.decided'),
    ...base,
    step: z.number().int(),
    id: z.string(),
    toolName: z.string(),
    approved: z.boolean(),
    reason: z.string().optional(),
  }),
  z.object({
    type: z.literal('state.changed'),
    ...base,
    key: z.string(),
    /** The new value; absent when the key was deleted. */
    value: z.unknown().optional(),
    /** The value before; absent when the key was new. */
    previous: z.unknown().optional(),
    deleted: z.boolean(),
    version: z.number().int(),
    /** The tool call that made the change, when a tool made it. */
    toolName: z.string().optional(),
    callId: z.string().optional(),
  }),
  /**
   * A tool call the tool rules refused: it was not executed, and the model
   * was answered with `content` (naming the rule and the tools allowed now).
   */
  z.object({
    type: z.literal('tool.refused'),
    ...base,
    step: z.number().int(),
    call: ToolCallSchema,
    /** The rule family that refused it, e.g. `child`, `maxCount`, `terminal`. */
    rule: z.string(),
    reason: z.string(),
    allowedTools: z.array(z.string()),
    content: z.string(),
  }),
  z.object({
    type: z.literal('run.finished'),
    ...base,
    reason: StopReasonSchema,
    error: ErrorInfoSchema.optional(),
  }),
]);
export type RunEvent = z.infer<typeof RunEventSchema>;

/** The run event of a given `type`. */
export type RunEventOf<T extends RunEvent['type']> = Extract<RunEvent, { type: T }>;

/**
 * Turns anything thrown into plain error data for events and results, its
 * message redacted (a server error that echoes a credential keeps it out of
 * results, events and traces).
 */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code;
    const message = redactText(error.message);
    return typeof code === 'string' ? { name: error.name, code, message } : { name: error.name, message };
  }
  return { name: 'Error', message: redactText(String(error)) };
}
