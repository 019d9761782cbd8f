import { ConfigurationError } from '@agentchart/core';
import { z } from 'zod';

/**
 * An error message for an option's schema: what the option takes, then what
 * it got. Give the same one to every part of an option's schema (a union's
 * alternatives, an array's items) so that whichever part refuses the value,
 * the caller reads what the whole option takes.
 *
 * @example
 * const MaxRounds = z.number(expects('must be a whole number of at least 1')).int().min(1);
 */
export function expects(what: string): { error: (issue: { input?: unknown }) => string } {
  return { error: (issue) => `${what}; got ${describeValue(issue.input)}` };
}

/**
 * Checks what a caller passed against the options' zod schema, so JavaScript
 * and JSON callers get the errors the TypeScript types promise. Throws a
 * `ConfigurationError` naming the first option that does not fit, what it
 * takes and what it got (`createGroupChat(options): maxRounds must be a whole
 * number of at least 1; got "3".`). The value is only checked, never
 * replaced: callers keep what they passed (agents and tools are known by
 * identity).
 *
 * `caller` names the call (`createAgent({ name: "a" })`); `root` is the
 * option the value is, when the value is one option (`toolChoice`).
 *
 * @example
 * assertOptions(GroupChatOptionsSchema, options, 'createGroupChat(options)');
 */
export function assertOptions(schema: z.ZodType, value: unknown, caller: string | undefined, root?: string): void {
  const parsed = schema.safeParse(value);
  if (parsed.success) return;
  const issue = parsed.error.issues[0] as z.core.$ZodIssue;
  const path = [...(root === undefined ? [] : [root]), ...issue.path];
  const option = optionPath(path);
  const subject = option === '' ? (caller ?? 'The options') : caller === undefined ? option : `${caller}: ${option}`;
  const message = `${subject} ${issue.message}`;
  throw new ConfigurationError(message.endsWith('.') ? message : `${message}.`, {
    option: option || undefined,
    issues: parsed.error.issues.map(formatIssue),
  });
}

/** `agents[1].handoffs`: a path the way a caller writes it. */
function optionPath(path: readonly PropertyKey[]): string {
  return path.reduce<string>((text, key) => (typeof key === 'number' ? `${text}[${key}]` : text === '' ? String(key) : `${text}.${String(key)}`), '');
}

function formatIssue(issue: z.core.$ZodIssue): string {
  return `${optionPath(issue.path)}: ${issue.message}`;
}

/**
 * A value as an error message shows it: short plain data as JSON, anything
 * else by its kind (`a function`, `an object`, `an array of 12 items`).
 *
 * @example
 * describeValue('alice'); // '"alice"'
 * describeValue(() => {}); // 'a function'
 */
export function describeValue(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (typeof value === 'function') return 'a function';
  if (typeof value === 'bigint' || typeof value === 'symbol') return String(value);
  let json: string | undefined;
  try {
    json = JSON.stringify(value);
  } catch {
    json = undefined;
  }
  if (json !== undefined && json.length <= 80 && (typeof value !== 'object' || value === null || isPlain(value))) return json;
  if (Array.isArray(value)) return `an array of ${value.length} items`;
  return typeof value === 'object' ? 'an object' : String(value);
}

function isPlain(value: object): boolean {
  const prototype = Object.getPrototypeOf(value);
  return Array.isArray(value) || prototype === Object.prototype || prototype === null;
}

/**
 * A schema that lets the value's shape pick the schema that checks it, so the
 * caller reads what is wrong inside the form they meant (`handoffs must be a
 * list`) rather than that no form fits, which is all a zod union can say when
 * every alternative fails at the top.
 *
 * @example
 * const Member = chosenBy((value) => (isObject(value) && 'agent' in value ? MemberOptionsSchema : ParticipantSchema));
 */
export function chosenBy(choose: (value: unknown) => z.ZodType): z.ZodType {
  return z.unknown().superRefine((value, context) => {
    const parsed = choose(value).safeParse(value);
    // The issues keep their messages; the path is prefixed with where this schema sits.
    if (!parsed.success) for (const issue of parsed.error.issues) context.addIssue({ ...issue } as z.core.$ZodRawIssue);
  });
}
