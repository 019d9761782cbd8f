import { ConfigurationError } from '@agentchart/core';

/** A JSON object of an OpenAPI document (the parts agentchart reads are typed where it reads them). */
export type OpenApiObject = { [key: string]: unknown };

/** An OpenAPI 3.x document, as parsed JSON (or YAML parsed by the caller). */
export interface OpenApiDocument {
  openapi: string;
  servers?: { url: string; variables?: Record<string, { default: string }> }[];
  paths?: Record<string, OpenApiObject>;
  components?: OpenApiObject;
  security?: Record<string, string[]>[];
  [key: string]: unknown;
}

export const isObject = (value: unknown): value is OpenApiObject => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Checks that `document` is an OpenAPI 3 document (a parsed object or JSON text). */
export function readOpenApiDocument(document: OpenApiDocument | string): OpenApiDocument {
  let parsed: unknown = document;
  if (typeof document === 'string') {
    try {
      parsed = JSON.parse(document);
    } catch {
      throw new ConfigurationError(
        'toolsFromOpenAPI takes the document as an object or JSON text; parse YAML documents first (e.g. with the `yaml` package).',
      );
    }
  }
  if (!isObject(parsed) || typeof parsed.openapi !== 'string' || !parsed.openapi.startsWith('3.')) {
    throw new ConfigurationError(
      'toolsFromOpenAPI needs an OpenAPI 3.x document (with `openapi: "3.x.y"`); Swagger 2.0 documents must be converted first.',
      { openapi: isObject(parsed) ? parsed.openapi : undefined },
    );
  }
  if (!isObject(parsed.paths)) throw new ConfigurationError('The OpenAPI document has no `paths`: there are no operations to turn into tools.');
  return parsed as OpenApiDocument;
}

/** The value a local JSON pointer (`#/components/schemas/Pet`) points to. */
export function resolvePointer(document: OpenApiDocument, ref: string): unknown {
  if (!ref.startsWith('#/')) {
    throw new ConfigurationError(`Only local $refs (starting with "#/") are supported; bundle the document first. Found "${ref}".`, { ref });
  }
  let node: unknown = document;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (!isObject(node) && !Array.isArray(node)) node = undefined;
    else node = (node as Record<string, unknown>)[key];
    if (node === undefined) throw new ConfigurationError(`The $ref "${ref}" points to nothing in the document.`, { ref });
  }
  return node;
}

/** Follows `$ref`s of a component (parameter, request body, security scheme) until a real object. */
export function dereference(document: OpenApiDocument, value: unknown): OpenApiObject {
  let node = value;
  for (let hops = 0; isObject(node) && typeof node.$ref === 'string'; hops++) {
    if (hops > 20) throw new ConfigurationError(`The $ref chain at "${node.$ref}" does not end.`);
    node = resolvePointer(document, node.$ref);
  }
  if (!isObject(node)) throw new ConfigurationError('The OpenAPI document has a component that is not an object.');
  return node;
}
