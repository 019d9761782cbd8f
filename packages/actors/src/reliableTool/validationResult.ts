import type { ResponseFormat } from '@agentchart/core';
import { z } from 'zod';

/** The validator's structured answer. */
export const ValidationResultSchema = z.object({
  valid: z.boolean().describe('True when the result satisfies the task and every criterion.'),
  justification: z.string().describe('One or two sentences: why the result is valid or what is wrong with it.'),
});
export type ValidationResult = z.infer<typeof ValidationResultSchema>;

const { $schema: _ignored, ...validationJsonSchema } = z.toJSONSchema(ValidationResultSchema) as Record<string, unknown>;

/** The response format the validator is asked for (Ollama `format`, OpenAI json_schema). */
export const validationResponseFormat: ResponseFormat = {
  type: 'json_schema',
  name: 'validation_result',
  schema: validationJsonSchema,
};

/**
 * Reads the validator's reply. A reply that is not the structured output
 * asked for is a failed validation whose justification says so, never an
 * exception. Code fences around the JSON are tolerated (small models add them).
 *
 * @example
 * parseValidationReply('{"valid":true,"justification":"Matches."}') // { valid: true, justification: 'Matches.' }
 * parseValidationReply('Looks good!').valid // false
 */
export function parseValidationReply(text: string): ValidationResult {
  const json = stripCodeFence(text.trim());
  let data: unknown;
  try {
    data = JSON.parse(json);
  } catch {
    return notStructured(`it is not JSON: ${quote(text)}`);
  }
  const parsed = ValidationResultSchema.safeParse(data);
  if (parsed.success) return parsed.data;
  const issues = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(reply)'}: ${issue.message}`).join('; ');
  return notStructured(`${issues} in ${quote(text)}`);
}

function notStructured(detail: string): ValidationResult {
  return {
    valid: false,
    justification: `The validator's reply is not valid structured output ({ "valid": boolean, "justification": string }): ${detail}`,
  };
}

function stripCodeFence(text: string): string {
  const fenced = /^```(?:json)?\s*([\s\S]*?)\s*```$/i.exec(text);
  return fenced?.[1] ?? text;
}

function quote(text: string, max = 200): string {
  return JSON.stringify(text.length <= max ? text : `${text.slice(0, max)}…`);
}
