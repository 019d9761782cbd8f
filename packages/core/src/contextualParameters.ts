import { ToolDefinitionError } from './errors.js';
import type { ToolContext } from './tool.js';

/**
 * The parameters schema of a tool whose `parameters` is a function of the
 * call context, built once without a call (for the JSON Schema the model sees).
 * Refinements only run when arguments are parsed, so the placeholder context is
 * never read unless someone parses `tool.parameters` directly: then reading it
 * throws an error that says what to do.
 */
export function schemaWithoutContext<P>(toolName: string, parameters: P | ((ctx: ToolContext) => P)): P {
  if (typeof parameters !== 'function') return parameters;
  return (parameters as (ctx: ToolContext) => P)(placeholderContext(toolName));
}

function placeholderContext(toolName: string): ToolContext {
  return new Proxy({} as ToolContext, {
    get(_target, property) {
      if (property === 'then') return undefined;
      throw new ToolDefinitionError(
        `The parameters of tool "${toolName}" read ctx.${String(property)} outside a tool call. ` +
          'Validate its arguments with validateToolArguments(tool, call, ctx) (the agent does), not tool.parameters.parse().',
        { name: toolName, property: String(property) },
      );
    },
  });
}
