import { ConfigurationError, type JsonSchema } from '@agentchart/core';
import { TOOL_NAME_PATTERN } from '@agentchart/core/internal';
import { checkOperationParameters } from './checkOperationParameters.js';
import { type OpenApiDocument, type OpenApiObject, dereference, isObject } from './openApiDocument.js';
import { requestJsonSchema } from './requestJsonSchema.js';

export type ParameterLocation = 'path' | 'query' | 'header' | 'cookie';

/** One parameter of an operation, with the argument name the model uses for it. */
export interface OperationParameter {
  /** The property of the tool's arguments. */
  argument: string;
  name: string;
  in: ParameterLocation;
  required: boolean;
  schema: JsonSchema;
  /** Serialization (OpenAPI defaults applied). */
  style: string;
  explode: boolean;
  /** Set when the parameter is given as `content` (serialized as JSON). */
  json: boolean;
}

/** The JSON-like request body of an operation. */
export interface OperationBody {
  /** The argument that holds it. */
  argument: string;
  mediaType: string;
  required: boolean;
  schema: JsonSchema;
}

/** An operation of the document, ready to become a tool. */
export interface OpenApiOperation {
  toolName: string;
  operationId: string | undefined;
  description: string;
  method: string;
  /** The path as the document writes it, e.g. `/pet/{petId}`. */
  path: string;
  /** The server URL of the document for this operation (may be relative), variables filled with their defaults. */
  serverUrl: string | undefined;
  parameters: OperationParameter[];
  body: OperationBody | undefined;
  /** Alternatives of security requirements: scheme names, each with the scheme object. */
  security: { name: string; scheme: OpenApiObject }[][];
}

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;
/** Header parameters the OpenAPI specification says to ignore. */
const IGNORED_HEADERS = new Set(['accept', 'content-type', 'authorization']);
/** Request media types, in order of preference. */
const BODY_TYPES = [
  (type: string) => type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type),
  (type: string) => type === 'application/x-www-form-urlencoded',
  (type: string) => type === 'multipart/form-data',
  (type: string) => type.startsWith('text/') || type === 'application/octet-stream',
];

/**
 * Every operation of the document, in document order, with parameters merged
 * from the path item and the operation, the request body chosen (JSON first)
 * and the applicable security requirements. `include` picks operations by
 * tool name (the operationId made a valid tool name) or operationId.
 */
export function openApiOperations(
  document: OpenApiDocument,
  include: (toolName: string, operationId: string | undefined) => boolean = () => true,
): OpenApiOperation[] {
  const operations: OpenApiOperation[] = [];
  const usedNames = new Set<string>();
  for (const [path, rawItem] of Object.entries(document.paths ?? {})) {
    const item = dereference(document, rawItem);
    for (const method of Object.keys(item).filter((key) => (METHODS as readonly string[]).includes(key))) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const toolName = uniqueName(toolNameOf(operation, method, path), usedNames);
      const operationId = typeof operation.operationId === 'string' ? operation.operationId : undefined;
      if (!include(toolName, operationId)) continue; // names stay the same whatever is included
      checkOperationParameters(document, item, operation, method, path);
      const parameters = operationParameters(document, item, operation);
      const body = requestBody(document, operation, new Set(parameters.map((parameter) => parameter.argument)));
      operations.push({
        toolName,
        operationId,
        description: describe(operation, method, path),
        method: method.toUpperCase(),
        path,
        serverUrl: serverUrlOf(operation.servers) ?? serverUrlOf(item.servers) ?? serverUrlOf(document.servers),
        parameters,
        body,
        security: securityOf(document, operation),
      });
    }
  }
  return operations;
}

/** The operationId made a valid tool name; without one, method and path (`get_pet_petId`: one `_` between parts). */
function toolNameOf(operation: OpenApiObject, method: string, path: string): string {
  const hasId = typeof operation.operationId === 'string' && operation.operationId !== '';
  const raw = hasId ? (operation.operationId as string) : `${method}_${path}`.replace(/[^a-zA-Z0-9-]+/g, '_');
  const name = raw
    .replace(/[^a-zA-Z0-9_-]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .slice(0, 64);
  return TOOL_NAME_PATTERN.test(name) ? name : `${method}_operation`;
}

function uniqueName(name: string, used: Set<string>): string {
  let unique = name;
  for (let n = 2; used.has(unique); n++) unique = `${name.slice(0, 60)}_${n}`;
  used.add(unique);
  return unique;
}

function describe(operation: OpenApiObject, method: string, path: string): string {
  const parts = [operation.summary, operation.description]
    .filter((text): text is string => typeof text === 'string' && text.trim() !== '')
    .map((text) => text.trim());
  const unique = parts.filter((text, index) => parts.indexOf(text) === index);
  return unique.length > 0 ? unique.join('\n\n') : `${method.toUpperCase()} ${path}`;
}

function serverUrlOf(servers: unknown): string | undefined {
  if (!Array.isArray(servers) || !isObject(servers[0]) || typeof servers[0].url !== 'string') return undefined;
  const { url, variables } = servers[0] as { url: string; variables?: unknown };
  return url.replace(/\{([^}]+)\}/g, (whole, name: string) => {
    const variable = isObject(variables) ? variables[name] : undefined;
    return isObject(variable) && typeof variable.default === 'string' ? variable.default : whole;
  });
}

function operationParameters(document: OpenApiDocument, item: OpenApiObject, operation: OpenApiObject): OperationParameter[] {
  const byKey = new Map<string, OpenApiObject>();
  for (const raw of [...asArray(item.parameters), ...asArray(operation.parameters)]) {
    const parameter = dereference(document, raw);
    if (typeof parameter.name !== 'string' || !['path', 'query', 'header', 'cookie'].includes(String(parameter.in))) continue;
    if (parameter.in === 'header' && IGNORED_HEADERS.has(parameter.name.toLowerCase())) continue;
    byKey.set(`${String(parameter.in)}:${parameter.name}`, parameter); // operation-level overrides path-level
  }
  const names = [...byKey.values()].map((parameter) => parameter.name as string);
  const taken = new Set<string>();
  return [...byKey.values()].map((parameter) => {
    const name = parameter.name as string;
    const location = parameter.in as ParameterLocation;
    const clash = names.filter((other) => other === name).length > 1 || taken.has(name);
    const argument = clash ? `${name}_${location}` : name;
    taken.add(argument);
    const content = isObject(parameter.content) ? Object.values(parameter.content).find(isObject) : undefined;
    const schema = requestJsonSchema(document, content?.schema ?? parameter.schema ?? { type: 'string' });
    if (typeof parameter.description === 'string' && parameter.description.trim() !== '' && schema.description === undefined) {
      schema.description = parameter.description.trim();
    }
    const style = typeof parameter.style === 'string' ? parameter.style : location === 'query' || location === 'cookie' ? 'form' : 'simple';
    return {
      argument,
      name,
      in: location,
      required: location === 'path' || parameter.required === true,
      schema,
      style,
      explode: typeof parameter.explode === 'boolean' ? parameter.explode : style === 'form',
      json: content !== undefined,
    };
  });
}

function requestBody(document: OpenApiDocument, operation: OpenApiObject, taken: Set<string>): OperationBody | undefined {
  if (operation.requestBody === undefined) return undefined;
  const body = dereference(document, operation.requestBody);
  const content = isObject(body.content) ? body.content : {};
  const mediaTypes = Object.keys(content);
  for (const accepts of BODY_TYPES) {
    const mediaType = mediaTypes.find(accepts);
    if (mediaType === undefined) continue;
    const media = content[mediaType];
    const schema = requestJsonSchema(document, isObject(media) ? media.schema : undefined);
    if (typeof body.description === 'string' && body.description.trim() !== '' && schema.description === undefined) {
      schema.description = body.description.trim();
    }
    const argument = taken.has('body') ? 'requestBody' : 'body';
    return { argument, mediaType, required: body.required === true, schema };
  }
  throw new ConfigurationError(
    `Operation "${String(operation.operationId)}" only takes request bodies of type ${mediaTypes.join(', ')}, which toolsFromOpenAPI cannot build. ` +
      'Leave it out with the `operations` option.',
    { operationId: operation.operationId, mediaTypes },
  );
}

function securityOf(document: OpenApiDocument, operation: OpenApiObject): { name: string; scheme: OpenApiObject }[][] {
  const requirements = Array.isArray(operation.security) ? operation.security : (document.security ?? []);
  const schemes = new Map(securitySchemes(document).map(({ name, scheme }) => [name, scheme]));
  return requirements.filter(isObject).map((requirement) =>
    Object.keys(requirement).map((name) => {
      const scheme = schemes.get(name);
      if (scheme === undefined)
        throw new ConfigurationError(`The security requirement "${name}" names no security scheme of the document.`, { name });
      return { name, scheme };
    }),
  );
}

/** Every security scheme the document defines. */
export function securitySchemes(document: OpenApiDocument): { name: string; scheme: OpenApiObject }[] {
  const schemes = isObject(document.components) && isObject(document.components.securitySchemes) ? document.components.securitySchemes : {};
  return Object.entries(schemes).map(([name, scheme]) => ({ name, scheme: dereference(document, scheme) }));
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
