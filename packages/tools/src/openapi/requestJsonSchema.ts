import type { JsonSchema } from '@agentchart/core';
import { setOwn } from '@agentchart/core/internal';
import { type OpenApiDocument, type OpenApiObject, isObject, resolvePointer } from './openApiDocument.js';

/** The JSON Schema keywords kept from an OpenAPI schema; the rest (xml, example, discriminator, x-…) is dropped. */
const KEPT_KEYWORDS = new Set([
  'type',
  'enum',
  'const',
  'properties',
  'required',
  'additionalProperties',
  'items',
  'prefixItems',
  'anyOf',
  'oneOf',
  'allOf',
  'minLength',
  'maxLength',
  'pattern',
  'format',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'minProperties',
  'maxProperties',
  'description',
  'title',
  'default',
]);

/**
 * An OpenAPI schema as a self-contained JSON Schema (draft 2020-12) for a
 * request: `$ref`s inlined (a recursive reference becomes `{}`), OpenAPI 3.0's
 * `nullable` and boolean `exclusiveMinimum/Maximum` rewritten, read-only
 * properties (never sent in requests) removed, and non-validation keywords
 * dropped. The model sees it, and the arguments are validated with it.
 *
 * @example
 * requestJsonSchema(document, { $ref: '#/components/schemas/Pet' })
 */
export function requestJsonSchema(document: OpenApiDocument, schema: unknown): JsonSchema {
  return convert(document, schema, []) as JsonSchema;
}

function convert(document: OpenApiDocument, schema: unknown, refStack: readonly string[]): unknown {
  if (schema === true || schema === undefined) return {};
  if (!isObject(schema)) return schema;
  if (typeof schema.$ref === 'string') {
    if (refStack.includes(schema.$ref)) return { description: `(recursive: ${schema.$ref.split('/').pop()})` };
    const target = convert(document, resolvePointer(document, schema.$ref), [...refStack, schema.$ref]);
    const { $ref: _ref, ...siblings } = schema;
    return Object.keys(siblings).length === 0 || !isObject(target)
      ? target
      : { ...target, ...(convert(document, siblings, refStack) as OpenApiObject) };
  }
  const out: OpenApiObject = {};
  for (const [key, value] of Object.entries(schema)) {
    if (!KEPT_KEYWORDS.has(key)) continue;
    if (key === 'properties' && isObject(value)) {
      const properties: OpenApiObject = {};
      for (const [name, property] of Object.entries(value)) {
        if (isObject(property) && property.readOnly === true) continue;
        setOwn(properties, name, convert(document, property, refStack));
      }
      out.properties = properties;
    } else if (['items', 'additionalProperties'].includes(key) && isObject(value)) {
      setOwn(out, key, convert(document, value, refStack));
    } else if (['anyOf', 'oneOf', 'allOf', 'prefixItems'].includes(key) && Array.isArray(value)) {
      setOwn(
        out,
        key,
        value.map((item) => convert(document, item, refStack)),
      );
    } else {
      setOwn(out, key, value);
    }
  }
  if (Array.isArray(out.required) && isObject(out.properties)) {
    const readOnly = new Set(
      Object.entries(isObject(schema.properties) ? schema.properties : {})
        .filter(([, property]) => isObject(property) && property.readOnly === true)
        .map(([name]) => name),
    );
    out.required = (out.required as string[]).filter((name) => !readOnly.has(name));
  }
  rewriteOpenApi30(schema, out);
  return out;
}

/** `nullable: true` → a type that admits null; `exclusiveMinimum: true` → the numeric form. */
function rewriteOpenApi30(source: OpenApiObject, out: OpenApiObject): void {
  for (const [flag, bound] of [
    ['exclusiveMinimum', 'minimum'],
    ['exclusiveMaximum', 'maximum'],
  ] as const) {
    if (typeof source[flag] === 'boolean') {
      delete out[flag];
      if (source[flag] === true && typeof source[bound] === 'number') {
        out[flag] = source[bound];
        delete out[bound];
      }
    }
  }
  if (source.nullable !== true) return;
  if (typeof out.type === 'string') out.type = [out.type, 'null'];
  else if (Array.isArray(out.type) && !out.type.includes('null')) out.type = [...out.type, 'null'];
  if (Array.isArray(out.enum) && !out.enum.includes(null)) out.enum = [...out.enum, null];
}
