import type { JsonSchema } from '@agentchart/core';
import { Ajv, type ErrorObject } from 'ajv';
import { z } from 'zod';

const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false });

/** The outcome of compiling a server's input schema. */
export type CompiledArguments = { ok: true; schema: z.ZodType<Record<string, unknown>>; jsonSchema: JsonSchema } | { ok: false; problem: string };

/**
 * A zod schema that validates tool arguments with the server's JSON Schema
 * (ajv), so the agent rejects bad arguments before any request, with the
 * issues at their paths, and the model sees them. The schema must compile
 * and describe an object; otherwise `problem` says why.
 *
 * @example
 * const compiled = compileArgumentsSchema({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] });
 * compiled.ok && compiled.schema.safeParse({ a: 'x' }).success; // false
 */
export function compileArgumentsSchema(inputSchema: unknown): CompiledArguments {
  if (typeof inputSchema !== 'object' || inputSchema === null || Array.isArray(inputSchema)) {
    return { ok: false, problem: 'the input schema is not a JSON object' };
  }
  const { $schema: _dialect, ...jsonSchema } = inputSchema as Record<string, unknown>;
  if (jsonSchema.type !== 'object') {
    return {
      ok: false,
      problem: `the input schema's type is ${JSON.stringify(jsonSchema.type)}, but tool arguments are an object ("type": "object")`,
    };
  }
  let validate: ReturnType<typeof ajv.compile>;
  try {
    validate = ajv.compile(jsonSchema);
  } catch (error) {
    return { ok: false, problem: `the input schema is not a valid JSON Schema: ${(error as Error).message}` };
  }
  const schema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    if (validate(value)) return;
    for (const error of validate.errors ?? []) ctx.addIssue({ code: 'custom', message: issueMessage(error), path: issuePath(error) });
  });
  return { ok: true, schema, jsonSchema: jsonSchema as JsonSchema };
}

function issuePath(error: ErrorObject): string[] {
  const path = error.instancePath
    .split('/')
    .slice(1)
    .map((part) => part.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (error.keyword === 'required') path.push(String((error.params as { missingProperty: string }).missingProperty));
  if (error.keyword === 'additionalProperties') path.push(String((error.params as { additionalProperty: string }).additionalProperty));
  return path;
}

function issueMessage(error: ErrorObject): string {
  switch (error.keyword) {
    case 'required':
      return 'is required';
    case 'additionalProperties':
      return 'is not an accepted argument';
    case 'enum':
      return `must be one of ${JSON.stringify((error.params as { allowedValues: unknown[] }).allowedValues)}`;
    default:
      return error.message ?? `fails "${error.keyword}"`;
  }
}
