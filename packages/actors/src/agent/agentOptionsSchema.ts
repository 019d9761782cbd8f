import { z } from 'zod';
import { expects } from '../assertOptions.js';
import { chatModelSchema, inspectSchema } from '../optionSchemas.js';
import { ToolChoiceSchema } from './machine/toolChoiceSchema.js';

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;
const limit = () => z.number(expects('must be a whole number of at least 1')).int().min(1).optional();

/**
 * The shape of `createAgent`'s options, checked before anything is built, so
 * a JavaScript caller gets a `ConfigurationError` naming the option instead
 * of a `TypeError` later. Lists of tools, middleware and tool rules are
 * checked item by item where they are read (`ToolDefinitionError`, the
 * middleware's own message, `ToolRulesError`).
 */
export const AgentOptionsSchema = z.object(
  {
    name: z.string(expects('must be 1 to 64 letters, digits, "_" or "-" (providers reject other names)')).regex(/^[a-zA-Z0-9_-]{1,64}$/),
    model: chatModelSchema(),
    instructions: z.string(expects('must be a string: the system prompt')).optional(),
    tools: z.unknown().optional(),
    addableTools: z.unknown().optional(),
    toolSources: z.unknown().optional(),
    middleware: z.unknown().optional(),
    toolRules: z.unknown().optional(),
    unnamedTools: z.enum(['where-free', 'refuse'], expects("must be 'where-free' or 'refuse'")).optional(),
    maxSteps: limit(),
    maxToolCalls: limit(),
    maxConsecutiveErrors: limit(),
    detailedErrors: z.boolean(expects('must be true or false')).optional(),
    toolChoice: ToolChoiceSchema.optional(),
    inspect: inspectSchema().optional(),
    // Checked where they are read, with messages of their own (`tokenBudget`, `checkPriceTable`).
    maxTokens: z.unknown().optional(),
    prices: z.unknown().optional(),
    stateSchema: z
      .custom(
        (value) => isObject(value) && typeof value.safeParse === 'function',
        expects('must be a zod schema, e.g. z.object({ topic: z.string() })'),
      )
      .optional(),
  },
  expects('must be an options object: { name, model, instructions?, tools?, ... }'),
);
