import type { StateRecord } from '@agentchart/core';
import type { z } from 'zod';

/** Checks state values against a schema: the parsed values, or the issues as "path: message" lines. */
export function checkStateSchema(
  schema: z.ZodType<StateRecord>,
  values: StateRecord,
): { ok: true; values: StateRecord } | { ok: false; issues: string[] } {
  const parsed = schema.safeParse(values);
  if (parsed.success) return { ok: true, values: parsed.data };
  return {
    ok: false,
    issues: parsed.error.issues.map((issue) => `${issue.path.map(String).join('.') || '(state)'}: ${issue.message}`),
  };
}
