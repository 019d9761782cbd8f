import {
  AgentchartError,
  ConfigurationError,
  type AnyTool,
  type FunctionInvocationContext,
  type FunctionInvocationMetadata,
  type FunctionMiddleware,
  type ToolContext,
} from '@agentchart/core';

/** What an invocation through the middleware chain produced. */
export interface InvocationOutcome {
  /** The tool's return value, or what a middleware set instead. */
  result: unknown;
  /** Set when a middleware called `endRun()`. */
  endsRun: boolean;
}

/**
 * Runs one tool invocation through the middleware chain, outermost first,
 * with the tool itself at the centre. `next()` may be called once per
 * middleware; a middleware that sets `ctx.result` without calling it answers
 * for the tool, which then never runs. Errors from the tool or a middleware
 * propagate to the caller (and through `await next()` to outer middleware).
 *
 * @example
 * const { result } = await invokeWithMiddleware(tool, args, toolContext, metadata, [logCalls]);
 */
export async function invokeWithMiddleware(
  tool: AnyTool,
  args: Record<string, unknown>,
  toolContext: ToolContext,
  metadata: FunctionInvocationMetadata,
  middleware: readonly FunctionMiddleware[],
): Promise<InvocationOutcome> {
  // Without middleware there is no chain to build: the tool runs as is.
  if (middleware.length === 0) return { result: await tool.execute(args, toolContext), endsRun: false };
  let endsRun = false;
  const invocation: FunctionInvocationContext = {
    tool,
    arguments: args,
    result: undefined,
    metadata,
    toolContext,
    endRun(...given: unknown[]) {
      endsRun = true;
      if (given.length > 0) invocation.result = given[0];
    },
    get endsRun() {
      return endsRun;
    },
  };

  const dispatch = async (index: number): Promise<void> => {
    const layer = middleware[index];
    if (layer === undefined) {
      invocation.result = await tool.execute(invocation.arguments, toolContext);
      return;
    }
    let called = false;
    await layer(invocation, () => {
      if (called) {
        return Promise.reject(
          new AgentchartError('MIDDLEWARE_NEXT_TWICE', `A function middleware called next() twice for tool "${tool.name}": call it at most once.`, {
            toolName: tool.name,
            middlewareIndex: index,
          }),
        );
      }
      called = true;
      return dispatch(index + 1);
    });
  };

  await dispatch(0);
  return { result: invocation.result, endsRun };
}

/** The list of every agent and run without middleware (nobody writes to it). */
const noMiddleware: FunctionMiddleware[] = [];

/**
 * Checks a `middleware` option: a list of functions `(ctx, next) => …`.
 * Caught where it is given, not at the first tool call.
 *
 * @example
 * middlewareList('agent.run(..., { middleware })', options.middleware);
 */
export function middlewareList(where: string, value: unknown): FunctionMiddleware[] {
  if (value === undefined) return noMiddleware;
  const refuse = (problem: string) =>
    new ConfigurationError(`${where} takes a list of functions, e.g. [async (ctx, next) => { await next(); }]; ${problem}.`, { where });
  if (!Array.isArray(value)) throw refuse(`got ${describe(value)}`);
  const bad = value.findIndex((layer) => typeof layer !== 'function');
  if (bad >= 0) throw refuse(`item ${bad} is ${describe(value[bad])}`);
  return value as FunctionMiddleware[];
}

function describe(value: unknown): string {
  return value === null ? 'null' : Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}
