import { type z, core } from 'zod';
import type { ToolCall } from './messages.js';
import type { JsonSchema } from './chatModel.js';
import type { AnyTool } from './defineTool.js';
import { restoreOptionalNulls, toParametersJsonSchema } from './toolJsonSchema.js';
import type { ToolContext } from './toolContext.js';

/** One problem with a tool call's arguments. */
export interface ArgumentIssue {
  /** Where the problem is, e.g. `items[2].price`; empty for the whole object. */
  path: string;
  message: string;
}

/** The outcome of validating a call's arguments against its tool's schema. */
export type ArgumentValidation = { ok: true; args: Record<string, unknown> } | { ok: false; issues: ArgumentIssue[] };

/**
 * Parses and validates a call's arguments with the tool's zod schema (async
 * refinements and transforms included). Pass the call's context for tools
 * whose `parameters` is a function of it. A `ToolError` thrown by a refinement
 * propagates: its message is meant for the model as is.
 *
 * @example
 * const v = await validateToolArguments(addTool, { id: '1', name: 'add', arguments: { a: 'x' } });
 * if (!v.ok) console.log(formatArgumentIssues('add', v.issues));
 */
export async function validateToolArguments(tool: AnyTool, call: ToolCall, ctx?: ToolContext): Promise<ArgumentValidation> {
  return validateToolArgumentsNow(tool, call, ctx);
}

/**
 * `validateToolArguments`, answered at once when the tool's schema parses
 * synchronously (the common case: no async refinement or transform), else a
 * promise. A run's tool call uses it to skip two promises and their ticks.
 * Throws what `validateToolArguments` rejects with.
 *
 * @example
 * const checked = validateToolArgumentsNow(addTool, call);
 * const validation = checked instanceof Promise ? await checked : checked;
 */
export function validateToolArgumentsNow(tool: AnyTool, call: ToolCall, ctx?: ToolContext): ArgumentValidation | Promise<ArgumentValidation> {
  if (call.malformedArguments !== undefined) {
    return {
      ok: false,
      issues: [{ path: '', message: `The arguments are not valid JSON: ${truncate(call.malformedArguments, 200)}` }],
    };
  }
  const schema = ctx !== undefined && tool.parametersFor !== undefined ? tool.parametersFor(ctx) : tool.parameters;
  const value = argumentsToValidate(tool, call);
  // Synchronously while the tool's schema allows it, which costs a fraction of `safeParseAsync`; a tool whose
  // parse meets a promise is remembered and parsed asynchronously from then on. (On that first call its
  // refinements up to the first async one run twice.)
  if (!asyncTools.has(tool)) {
    try {
      return toValidation(schema.safeParse(value) as z.ZodSafeParseResult<Record<string, unknown>>);
    } catch (error) {
      if (!(error instanceof core.$ZodAsyncError)) throw error;
      asyncTools.add(tool);
    }
  }
  return schema.safeParseAsync(value).then((parsed) => toValidation(parsed as z.ZodSafeParseResult<Record<string, unknown>>));
}

function toValidation(parsed: z.ZodSafeParseResult<Record<string, unknown>>): ArgumentValidation {
  return parsed.success ? { ok: true, args: parsed.data } : { ok: false, issues: parsed.error.issues.map(toArgumentIssue) };
}

/** Tools whose parameters need an async parse (an async refinement or transform). */
const asyncTools = new WeakSet<AnyTool>();

/**
 * The value a tool's schema parses for a call: its arguments (`{}` when
 * absent), without the `null`s a strict tool's schema admits for optional
 * properties (they mean "absent"). Whoever checks arguments outside
 * `validateToolArguments` must parse this value, or a strict tool's valid
 * call looks invalid.
 *
 * @example
 * argumentsToValidate(strictLookup, { id: '1', name: 'lookup', arguments: { city: 'Oslo', unit: null } });
 * // { city: 'Oslo' }
 */
export function argumentsToValidate(tool: AnyTool, call: ToolCall): unknown {
  const args = call.arguments ?? {};
  return tool.strict ? restoreOptionalNulls(args, looseSchemaOf(tool)) : args;
}

/**
 * The tool result a model sees when its arguments were invalid: every issue
 * with its path, so it can fix them all in one go.
 *
 * @example
 * formatArgumentIssues('add', [{ path: 'a', message: 'Expected number' }])
 * // 'Invalid arguments for tool "add":\n- a: Expected number\nFix these and call "add" again.'
 */
export function formatArgumentIssues(toolName: string, issues: readonly ArgumentIssue[]): string {
  const lines = issues.map((issue) => `- ${issue.path === '' ? '(arguments)' : issue.path}: ${issue.message}`);
  return `Invalid arguments for tool "${toolName}":\n${lines.join('\n')}\nFix these and call "${toolName}" again.`;
}

const looseSchemas = new WeakMap<object, JsonSchema>();

/** A strict tool's schema before the strict rewrite: which properties are really optional. */
function looseSchemaOf(tool: AnyTool): JsonSchema {
  let schema = looseSchemas.get(tool.parameters);
  if (schema === undefined) {
    schema = toParametersJsonSchema(tool.name, tool.parameters, { strict: false });
    looseSchemas.set(tool.parameters, schema);
  }
  return schema;
}

function toArgumentIssue(issue: z.core.$ZodIssue): ArgumentIssue {
  return { path: formatPath(issue.path), message: issue.message };
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else out += out === '' ? String(key) : `.${String(key)}`;
  }
  return out;
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}
