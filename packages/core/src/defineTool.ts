import { z } from 'zod';
import type { ToolSpec } from './chatModel.js';
import { toParametersJsonSchema } from './toolJsonSchema.js';
import { ToolDefinitionError } from './errors.js';
import { type ToolApproval, isToolApproval } from './toolApproval.js';
import type { Tool, ToolContext, ToolParameters } from './tool.js';

export type { AnyTool, Tool, ToolParameters } from './tool.js';
import { schemaWithoutContext } from './contextualParameters.js';
import { assertValidToolName } from './toolNames.js';

/** What `defineTool` takes. */
export interface ToolDefinition<P extends ToolParameters, R> {
  name: string;
  description: string;
  /**
   * The arguments' zod schema, or a function of the call's context that
   * returns it: refinements and transforms in it can then read `ctx.state`
   * (the function is called once per call, before `execute`).
   */
  parameters: P | ((ctx: ToolContext) => P);
  execute: (args: z.output<P>, ctx: ToolContext) => R | Promise<R>;
  /**
   * Strict mode: the JSON Schema says `additionalProperties: false` and lists
   * every property as required (optional ones become nullable; a `null` from
   * the model counts as absent), and providers that support it (OpenAI) are
   * asked to enforce it exactly.
   */
  strict?: boolean;
  /**
   * The tool must be called alone: a call of it in a reply that calls other
   * tools too (or calls it twice) is refused with a message, so the model
   * sees each result before its next action. Its description says so.
   */
  oneCallAtATime?: boolean;
  /**
   * Whether a call waits for a human decision before it runs: `never` (the
   * default), `always`, or a predicate over the validated arguments.
   */
  approval?: ToolApproval<z.output<P>>;
  /**
   * Running a call twice does no harm (it reads, or it passes
   * `ctx.idempotencyKey` to a service that deduplicates). A durable run
   * re-runs such a call when a crash left it in doubt; any other in-doubt
   * call waits for a person's decision instead.
   */
  idempotent?: boolean;
}

/** Appended to the description of a `oneCallAtATime` tool, for the model. */
export const ONE_CALL_AT_A_TIME_NOTE =
  'Call this tool on its own: a reply that calls it together with any other tool call (or calls it twice) is refused.';

/**
 * Defines a typed tool. The model sees the JSON Schema generated from
 * `parameters` by `z.toJSONSchema`; the agent parses and validates the model's
 * arguments with the same schema before `execute` runs. Give `parameters` as
 * a function of the call context when its refinements need shared state.
 *
 * @example
 * const add = defineTool({
 *   name: 'add',
 *   description: 'Adds two numbers.',
 *   parameters: z.object({ a: z.number(), b: z.number() }),
 *   execute: ({ a, b }) => a + b,
 * });
 * const answer = defineTool({
 *   name: 'answer',
 *   description: 'Answers from the retrieved context.',
 *   parameters: (ctx) => z.object({ text: z.string() }).refine(() => ctx.state.has('context'), 'Retrieve the context first.'),
 *   execute: ({ text }) => text,
 * });
 */
export function defineTool<P extends ToolParameters, R>(definition: ToolDefinition<P, R>): Tool<P, R> {
  assertValidToolName(definition.name);
  if (typeof definition.description !== 'string') {
    throw new ToolDefinitionError(`Tool "${definition.name}" needs a description string: models choose tools by it.`, {
      name: definition.name,
    });
  }
  const parameters = schemaWithoutContext(definition.name, definition.parameters);
  if (!(parameters instanceof z.ZodType)) {
    throw new ToolDefinitionError(`Tool "${definition.name}" needs \`parameters\` as a zod schema, e.g. z.object({ city: z.string() }).`, {
      name: definition.name,
    });
  }
  if (typeof definition.execute !== 'function') {
    throw new ToolDefinitionError(`Tool "${definition.name}" needs an \`execute(args, ctx)\` function.`, {
      name: definition.name,
    });
  }
  const approval = definition.approval ?? 'never';
  if (!isToolApproval(approval)) {
    throw new ToolDefinitionError(
      `Tool "${definition.name}" has an invalid \`approval\`: use 'never', 'always' or a function (args, ctx) => boolean.`,
      { name: definition.name, approval: String(approval) },
    );
  }
  const strict = definition.strict ?? false;
  const oneCallAtATime = definition.oneCallAtATime ?? false;
  const jsonSchema = toParametersJsonSchema(definition.name, parameters, { strict });
  const description = oneCallAtATime ? `${definition.description} ${ONE_CALL_AT_A_TIME_NOTE}` : definition.description;
  const spec: ToolSpec = { name: definition.name, description, parameters: jsonSchema };
  if (strict) spec.strict = true;
  const tool: Tool<P, R> = {
    name: definition.name,
    description: definition.description,
    parameters,
    strict,
    oneCallAtATime,
    jsonSchema,
    spec,
    approval: typeof approval === 'function' ? 'conditional' : approval,
    execute: definition.execute,
    needsApproval: typeof approval === 'function' ? approval : () => approval === 'always',
    ...(definition.idempotent === true ? { idempotent: true } : {}),
  };
  const contextual = definition.parameters;
  if (typeof contextual === 'function') return { ...tool, parametersFor: (ctx) => contextual(ctx) };
  return tool;
}
