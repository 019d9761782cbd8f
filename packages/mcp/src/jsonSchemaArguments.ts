import type { JsonSchema } from '@agentchart/core';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import { z } from 'zod';
import { linearRegExp } from './linearRegExp.js';

// `ownProperties`: a property named `toString` or `constructor` is not found on Object.prototype.
const ajv = new Ajv({ allErrors: true, strict: false, validateFormats: false, ownProperties: true, code: { regExp: linearRegExp } });

/** How large a server's schema may be. */
export interface SchemaLimits {
  /** Characters of the schema as JSON. */
  readonly maxSchemaChars: number;
  /** Nesting of objects and arrays. */
  readonly maxSchemaDepth: number;
}

/** The outcome of compiling a server's input schema. */
export type CompiledArguments = { ok: true; schema: z.ZodType<Record<string, unknown>>; jsonSchema: JsonSchema } | { ok: false; problem: string };

/** The outcome of compiling a server's output schema. */
export type CompiledOutput = { ok: true; validate: (value: unknown) => string | undefined } | { ok: false; problem: string };

/**
 * A zod schema that validates tool arguments with the server's JSON Schema
 * (ajv, with RE2 for patterns), so the agent rejects bad arguments before
 * any request, with the issues at their paths, and the model sees them. The
 * schema must be within `limits`, compile, and describe an object;
 * otherwise `problem` says why.
 *
 * @example
 * const compiled = compileArgumentsSchema({ type: 'object', properties: { a: { type: 'number' } }, required: ['a'] }, { maxSchemaChars: 65_536, maxSchemaDepth: 32 });
 * compiled.ok && compiled.schema.safeParse({ a: 'x' }).success; // false
 */
export function compileArgumentsSchema(inputSchema: unknown, limits: SchemaLimits): CompiledArguments {
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
  const compiled = compileBounded(jsonSchema, limits, 'input');
  if (!compiled.ok) return compiled;
  const validate = compiled.validate;
  const schema = z.record(z.string(), z.unknown()).superRefine((value, ctx) => {
    if (validate(value)) return;
    for (const error of validate.errors ?? []) ctx.addIssue({ code: 'custom', message: issueMessage(error), path: issuePath(error) });
  });
  return { ok: true, schema, jsonSchema: jsonSchema as JsonSchema };
}

/**
 * A check of structured results against a tool's `outputSchema`: it returns
 * `undefined` when the value matches, else what is wrong.
 *
 * @example
 * const output = compileOutputSchema({ type: 'object', required: ['sum'] }, { maxSchemaChars: 65_536, maxSchemaDepth: 32 });
 * output.ok && output.validate({}); // '/sum is required'
 */
export function compileOutputSchema(outputSchema: unknown, limits: SchemaLimits): CompiledOutput {
  if (typeof outputSchema !== 'object' || outputSchema === null || Array.isArray(outputSchema)) {
    return { ok: false, problem: 'the output schema is not a JSON object' };
  }
  const { $schema: _dialect, ...jsonSchema } = outputSchema as Record<string, unknown>;
  const compiled = compileBounded(jsonSchema, limits, 'output');
  if (!compiled.ok) return compiled;
  const validate = compiled.validate;
  return {
    ok: true,
    validate: (value) => {
      if (validate(value)) return undefined;
      return (validate.errors ?? []).map((error) => `/${issuePath(error).join('/')} ${issueMessage(error)}`).join('; ');
    },
  };
}

function compileBounded(
  jsonSchema: Record<string, unknown>,
  limits: SchemaLimits,
  kind: 'input' | 'output',
): { ok: true; validate: ValidateFunction } | { ok: false; problem: string } {
  const size = JSON.stringify(jsonSchema).length;
  if (size > limits.maxSchemaChars) {
    return {
      ok: false,
      problem: `the ${kind} schema has ${size} characters, more than the ${limits.maxSchemaChars} allowed (\`limits.maxSchemaChars\`)`,
    };
  }
  const depth = depthOf(jsonSchema, limits.maxSchemaDepth + 1);
  if (depth > limits.maxSchemaDepth) {
    return { ok: false, problem: `the ${kind} schema is nested more than ${limits.maxSchemaDepth} levels deep (\`limits.maxSchemaDepth\`)` };
  }
  try {
    return { ok: true, validate: ajv.compile(jsonSchema) };
  } catch (error) {
    return { ok: false, problem: `the ${kind} schema is not a valid JSON Schema: ${(error as Error).message}` };
  }
}

/** How deep objects and arrays nest in `value`, counted up to `stopAt`. */
function depthOf(value: unknown, stopAt: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth > deepest) deepest = depth;
    if (deepest >= stopAt) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
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
