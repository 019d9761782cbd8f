import { z } from 'zod';
import type { JsonSchema } from './chatModel.js';
import { ToolDefinitionError } from './errors.js';
import { getOwn, setOwn } from './ownKeys.js';

type SchemaNode = { [key: string]: unknown };

const isNode = (value: unknown): value is SchemaNode => typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * The JSON Schema a model sees for a tool's zod parameters: `z.toJSONSchema`
 * of the input side, with literals and unions of literals as `enum` (small
 * models and some servers ignore `const` and `anyOf`), and, for strict tools,
 * OpenAI's strict form (see `toStrictJsonSchema`).
 *
 * @example
 * toParametersJsonSchema('run', z.object({ command: z.literal('start') }), { strict: false })
 * // { type: 'object', properties: { command: { type: 'string', enum: ['start'] } }, required: ['command'] }
 */
export function toParametersJsonSchema(name: string, parameters: z.ZodType, options: { strict: boolean }): JsonSchema {
  let schema: JsonSchema;
  try {
    schema = z.toJSONSchema(parameters, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch (error) {
    throw new ToolDefinitionError(`The parameters of tool "${name}" cannot be expressed as JSON Schema: ${(error as Error).message}`, { name });
  }
  if (schema.type !== 'object') {
    throw new ToolDefinitionError(
      `The parameters of tool "${name}" must be a zod object (z.object({...})): models pass tool arguments as a JSON object.`,
      { name, type: schema.type },
    );
  }
  const { $schema: _ignored, ...rest } = schema;
  const withEnums = literalsAsEnums(rest);
  return options.strict ? toStrictJsonSchema(withEnums) : withEnums;
}

/**
 * Rewrites `const: v` as `enum: [v]`, and an `anyOf` whose branches are all
 * enums of one type as a single enum.
 */
export function literalsAsEnums(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => {
    let out = node;
    if ('const' in out) {
      const { const: value, ...rest } = out;
      out = { ...rest, enum: [value] };
    }
    const branches = out.anyOf;
    if (Array.isArray(branches) && branches.length > 0 && branches.every(isPlainEnum)) {
      const types = new Set(branches.map((branch) => branch.type));
      if (types.size === 1) {
        const { anyOf: _merged, ...rest } = out;
        const type = branches[0]?.type;
        out = { ...(type === undefined ? {} : { type }), ...rest, enum: branches.flatMap((branch) => branch.enum as unknown[]) };
      }
    }
    return out;
  });
}

function isPlainEnum(branch: unknown): branch is SchemaNode & { enum: unknown[] } {
  return isNode(branch) && Array.isArray(branch.enum) && Object.keys(branch).every((key) => key === 'enum' || key === 'type');
}

/**
 * OpenAI's strict form: every object schema gets `additionalProperties: false`
 * and lists every property as required; a property that was optional becomes
 * nullable instead (the agent turns `null` back into "absent" before
 * validating, see `restoreOptionalNulls`). Records (objects whose
 * `additionalProperties` is a schema) are left as they are.
 */
export function toStrictJsonSchema(schema: JsonSchema): JsonSchema {
  return mapSchema(schema, (node) => {
    if (!isNode(node.properties) || isNode(node.additionalProperties)) return node;
    const properties = node.properties;
    const required = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    const strictProperties: SchemaNode = {};
    for (const [key, property] of Object.entries(properties)) {
      setOwn(strictProperties, key, required.has(key) || !isNode(property) ? property : nullable(property));
    }
    return { ...node, properties: strictProperties, required: Object.keys(properties), additionalProperties: false };
  });
}

function nullable(schema: SchemaNode): SchemaNode {
  if (acceptsNull(schema)) return schema;
  const { default: _default, ...rest } = schema;
  if (typeof rest.type === 'string' && rest.anyOf === undefined) {
    const out: SchemaNode = { ...rest, type: [rest.type, 'null'] };
    if (Array.isArray(out.enum)) out.enum = [...(out.enum as unknown[]), null];
    return out;
  }
  return { anyOf: [rest, { type: 'null' }] };
}

function acceptsNull(schema: SchemaNode): boolean {
  if (schema.type === 'null') return true;
  if (Array.isArray(schema.type) && schema.type.includes('null')) return true;
  const branches = schema.anyOf ?? schema.oneOf;
  return Array.isArray(branches) && branches.some((branch) => isNode(branch) && acceptsNull(branch));
}

/**
 * Undoes the nullable rewrite of `toStrictJsonSchema` on a model's arguments:
 * a `null` for a property that is optional (and not nullable) in the tool's
 * own schema means "absent", so it is removed before zod validates.
 *
 * @example
 * restoreOptionalNulls({ city: 'Oslo', unit: null }, looseSchema) // { city: 'Oslo' }
 */
export function restoreOptionalNulls(value: unknown, looseSchema: JsonSchema): unknown {
  if (Array.isArray(value)) {
    return isNode(looseSchema.items) ? value.map((item) => restoreOptionalNulls(item, looseSchema.items as JsonSchema)) : value;
  }
  if (!isNode(value) || !isNode(looseSchema.properties)) return value;
  const required = new Set(Array.isArray(looseSchema.required) ? (looseSchema.required as string[]) : []);
  const out: SchemaNode = {};
  // Keys are the model's: read and write own properties only, so `__proto__` stays an ordinary key.
  for (const [key, item] of Object.entries(value)) {
    const property = getOwn(looseSchema.properties, key);
    if (!isNode(property)) {
      setOwn(out, key, item);
      continue;
    }
    if (item === null && !required.has(key) && !acceptsNull(property)) continue;
    setOwn(out, key, restoreOptionalNulls(item, property));
  }
  return out;
}

/** Applies `fn` to every schema node, innermost first. */
function mapSchema(schema: JsonSchema, fn: (node: SchemaNode) => SchemaNode): JsonSchema {
  const visit = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(visit);
    if (!isNode(node)) return node;
    const out: SchemaNode = {};
    for (const [key, value] of Object.entries(node)) {
      setOwn(out, key, SUBSCHEMA_MAPS.has(key) && isNode(value) ? mapValues(value, visit) : SUBSCHEMA_KEYS.has(key) ? visit(value) : value);
    }
    return fn(out);
  };
  return visit(schema) as JsonSchema;
}

const mapValues = (record: SchemaNode, fn: (value: unknown) => unknown): SchemaNode =>
  Object.fromEntries(Object.entries(record).map(([key, value]) => [key, fn(value)]));

/** Keywords whose value is a schema or a list of schemas. */
const SUBSCHEMA_KEYS = new Set(['items', 'prefixItems', 'additionalProperties', 'anyOf', 'oneOf', 'allOf', 'not', 'contains']);
/** Keywords whose value maps names to schemas. */
const SUBSCHEMA_MAPS = new Set(['properties', '$defs', 'definitions', 'patternProperties']);
