const NAME = /^[a-zA-Z0-9_-]{1,64}$/;
const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const isLimit = (value: unknown) => value === undefined || (Number.isSafeInteger(value) && (value as number) >= 1);

/**
 * Whether `createAgent`'s options certainly pass `AgentOptionsSchema`: the
 * common options (name, model, instructions, limits, …) checked by hand, in
 * a fraction of what the schema's parse costs. `false` means "not sure", not
 * "invalid": the caller then parses with the schema, which names what is
 * wrong. A run that makes an agent per request pays this check each time.
 *
 * @example
 * if (!isPlainAgentOptions(options)) assertOptions(AgentOptionsSchema, options, 'createAgent(options)');
 */
export function isPlainAgentOptions(options: unknown): boolean {
  if (!isObject(options) || Array.isArray(options)) return false;
  const { name, model, instructions, unnamedTools, detailedErrors, toolChoice, inspect, stateSchema } = options;
  return (
    typeof name === 'string' &&
    NAME.test(name) &&
    isObject(model) &&
    typeof model.stream === 'function' &&
    (instructions === undefined || typeof instructions === 'string') &&
    (unnamedTools === undefined || unnamedTools === 'where-free' || unnamedTools === 'refuse') &&
    isLimit(options.maxSteps) &&
    isLimit(options.maxToolCalls) &&
    isLimit(options.maxConsecutiveErrors) &&
    (detailedErrors === undefined || typeof detailedErrors === 'boolean') &&
    // Rarer options with forms of their own: left to the schema.
    toolChoice === undefined &&
    inspect === undefined &&
    stateSchema === undefined
  );
}
