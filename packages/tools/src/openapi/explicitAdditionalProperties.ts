import type { JsonSchema } from '@agentchart/core';
import { isObject } from './openApiDocument.js';

const NESTED_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;

/**
 * A parameter's schema with every object schema saying which keys it takes:
 * an object with declared `properties` and no `additionalProperties` gets
 * `additionalProperties: false` (an exploded query object turns its keys into
 * parameter names, so only declared ones may go out); a free-form object (no
 * `properties`) gets `additionalProperties: true` explicitly. The model sees
 * this schema, and the arguments are validated against it.
 *
 * @example
 * explicitAdditionalProperties({ type: 'object', properties: { kind: { type: 'string' } } });
 * // { type: 'object', properties: { kind: { type: 'string' } }, additionalProperties: false }
 */
export function explicitAdditionalProperties(schema: JsonSchema): JsonSchema {
  const out: JsonSchema = { ...schema };
  if (isObject(out.properties)) {
    out.properties = Object.fromEntries(
      Object.entries(out.properties).map(([name, property]) => [
        name,
        isObject(property) ? explicitAdditionalProperties(property as JsonSchema) : property,
      ]),
    );
  }
  if (isObject(out.items)) out.items = explicitAdditionalProperties(out.items as JsonSchema);
  if (isObject(out.additionalProperties)) out.additionalProperties = explicitAdditionalProperties(out.additionalProperties as JsonSchema);
  for (const key of NESTED_LISTS) {
    const list = out[key];
    if (Array.isArray(list)) out[key] = list.map((item) => (isObject(item) ? explicitAdditionalProperties(item as JsonSchema) : item));
  }
  const isObjectSchema = out.type === 'object' || (Array.isArray(out.type) && out.type.includes('object')) || isObject(out.properties);
  if (isObjectSchema && out.additionalProperties === undefined) out.additionalProperties = !isObject(out.properties);
  return out;
}
