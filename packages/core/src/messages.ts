import { z } from 'zod';

/**
 * One call of a tool requested by a model.
 *
 * `arguments` is the parsed JSON value the model produced. When a provider
 * could not parse the model's argument text, `arguments` is `undefined` and
 * `malformedArguments` holds the raw text, so the agent can tell the model
 * exactly what was wrong instead of guessing.
 *
 * @example
 * const call: ToolCall = { id: 'call_1', name: 'add', arguments: { a: 1, b: 2 } };
 */
export const ToolCallSchema = z.object({
  /** The call's id in the run, unique within it: what `approve(id)`, journal entries and tool results name. */
  id: z.string().min(1),
  /** The tool's name, as the model called it. */
  name: z.string().min(1),
  // Optional: a call with malformed arguments has none, and JSON drops the `undefined`.
  /** The parsed JSON arguments; absent when the model's argument text did not parse. */
  arguments: z.unknown().optional(),
  /** The model's raw argument text, when it was not valid JSON. */
  malformedArguments: z.string().optional(),
  /**
   * The id the model gave, when it repeated an id already used in the run and
   * the runtime gave this call its own `id` (see `makeCallIdsUnique`).
   * Providers send this one back to the model; everything else uses `id`.
   */
  modelId: z.string().min(1).optional(),
});
export type ToolCall = z.infer<typeof ToolCallSchema>;

export const SystemMessageSchema = z.object({
  role: z.literal('system'),
  content: z.string(),
});
export type SystemMessage = z.infer<typeof SystemMessageSchema>;

export const UserMessageSchema = z.object({
  role: z.literal('user'),
  content: z.string(),
  name: z.string().optional(),
});
export type UserMessage = z.infer<typeof UserMessageSchema>;

export const AssistantMessageSchema = z.object({
  role: z.literal('assistant'),
  content: z.string(),
  name: z.string().optional(),
  reasoning: z.string().optional(),
  toolCalls: z.array(ToolCallSchema).optional(),
});
export type AssistantMessage = z.infer<typeof AssistantMessageSchema>;

export const ToolMessageSchema = z.object({
  role: z.literal('tool'),
  toolCallId: z.string(),
  toolName: z.string(),
  content: z.string(),
  isError: z.boolean().optional(),
});
export type ToolMessage = z.infer<typeof ToolMessageSchema>;

/** Any message of a transcript. */
export const MessageSchema = z.discriminatedUnion('role', [SystemMessageSchema, UserMessageSchema, AssistantMessageSchema, ToolMessageSchema]);
export type Message = z.infer<typeof MessageSchema>;

/** Token counts reported by a model; summed over a run. */
export const UsageSchema = z.object({
  inputTokens: z.number().int().nonnegative(),
  outputTokens: z.number().int().nonnegative(),
});
export type Usage = z.infer<typeof UsageSchema>;

/** An empty usage record, the start of every sum. */
export const zeroUsage = (): Usage => ({ inputTokens: 0, outputTokens: 0 });

/** Adds two usage records. */
export const addUsage = (a: Usage, b: Usage): Usage => ({
  inputTokens: a.inputTokens + b.inputTokens,
  outputTokens: a.outputTokens + b.outputTokens,
});

/**
 * Shorthand constructors for messages.
 *
 * @example
 * const history = [msg.system('Be brief.'), msg.user('Hi')];
 */
export const msg = {
  system: (content: string): SystemMessage => ({ role: 'system', content }),
  user: (content: string, name?: string): UserMessage => (name === undefined ? { role: 'user', content } : { role: 'user', content, name }),
  assistant: (content: string, toolCalls?: ToolCall[]): AssistantMessage =>
    toolCalls && toolCalls.length > 0 ? { role: 'assistant', content, toolCalls } : { role: 'assistant', content },
  tool: (toolCallId: string, toolName: string, content: string, isError?: boolean): ToolMessage =>
    isError ? { role: 'tool', toolCallId, toolName, content, isError } : { role: 'tool', toolCallId, toolName, content },
};
