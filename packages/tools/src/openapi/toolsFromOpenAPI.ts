import { type AnyTool, ConfigurationError, type JsonSchema, ToolError, defineTool, registerSecrets } from '@agentchart/core';
import { literalsAsEnums, setOwn } from '@agentchart/core/internal';
import { z } from 'zod';
import { DEFAULT_OPENAPI_TIMEOUT_MS, OPENAPI_MAX_RESPONSE_BYTES, OPENAPI_MAX_RESPONSE_CHARS } from '../constants.js';
import { explicitAdditionalProperties } from './explicitAdditionalProperties.js';
import { type OpenApiDocument, readOpenApiDocument } from './openApiDocument.js';
import { type OpenApiOperation, type OperationParameter, openApiOperations, securitySchemes } from './openApiOperations.js';
import { type OpenApiCredential, type PlacedCredential, credentialLocation, credentialsFor, placeCredential } from './securityCredentials.js';
import { sendOpenApiRequest } from './sendOpenApiRequest.js';
import { serializeParameters } from './serializeParameters.js';
import { checkReservedParameters, reservedParameterNames } from './reservedParameters.js';

/** What `toolsFromOpenAPI` takes beside the document. */
export interface OpenApiToolsOptions {
  /** Where requests go, replacing the document's server (needed when that server URL is relative). */
  baseUrl?: string;
  /** Headers sent with every request; an operation parameter of the same name is not asked of the model. */
  headers?: Readonly<Record<string, string>>;
  /** Query parameters sent with every request; an operation parameter of the same name is not asked of the model. */
  query?: Readonly<Record<string, string>>;
  /** Credentials by security scheme name (as in `components.securitySchemes`). */
  auth?: Readonly<Record<string, OpenApiCredential>>;
  /** Per request (default `DEFAULT_OPENAPI_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** Only these operations (by operationId or tool name); default: every operation. */
  operations?: readonly string[];
  /** Characters of a response body the model sees (default `OPENAPI_MAX_RESPONSE_CHARS`). */
  maxResponseChars?: number;
  /** Bytes of a response body read at most; the rest is not read (default `OPENAPI_MAX_RESPONSE_BYTES`). */
  maxResponseBytes?: number;
}

/**
 * One tool per operation of an OpenAPI 3 document. The tool is named after
 * the operationId and described by its summary and description; its arguments
 * are the operation's parameters (each sent where the document puts it: path,
 * query, header or cookie) and `body` for a request body, validated against
 * the document's schemas before any request. Credentials come from `auth`
 * only — never from the model, never in the transcript or events — and
 * requests go only to the document's server or `baseUrl`. The caller's fixed
 * `query`/`headers` and every credential's name are reserved: the model can
 * neither set nor duplicate them in any location. Parameter objects take only
 * the keys their schema allows (`additionalProperties`, made explicit in the
 * tool's JSON Schema). The model gets the response with its status, read up
 * to `maxResponseBytes` and with any echoed credential redacted; 4xx, 5xx,
 * timeouts and unreachable servers come back as error results it can read.
 *
 * @example
 * const tools = toolsFromOpenAPI(petstore, {
 *   baseUrl: 'https://petstore3.swagger.io/api/v3',
 *   auth: { api_key: process.env.PETSTORE_KEY! },
 * });
 * const agent = createAgent({ name: 'shop', model, tools });
 */
export function toolsFromOpenAPI(document: OpenApiDocument | string, options: OpenApiToolsOptions = {}): AnyTool[] {
  const doc = readOpenApiDocument(document);
  if (options.timeoutMs !== undefined && !(Number.isFinite(options.timeoutMs) && options.timeoutMs > 0)) {
    throw new ConfigurationError(`timeoutMs must be a positive number of milliseconds; got ${String(options.timeoutMs)}.`);
  }
  if (options.maxResponseChars !== undefined && !(Number.isInteger(options.maxResponseChars) && options.maxResponseChars > 0)) {
    throw new ConfigurationError(`maxResponseChars must be a whole number of at least 1; got ${String(options.maxResponseChars)}.`);
  }
  if (options.maxResponseBytes !== undefined && !(Number.isInteger(options.maxResponseBytes) && options.maxResponseBytes > 0)) {
    throw new ConfigurationError(`maxResponseBytes must be a whole number of at least 1; got ${String(options.maxResponseBytes)}.`);
  }
  checkFixedHeaders(options.headers ?? {});
  checkAuthNames(doc, options.auth ?? {});
  const wanted = options.operations === undefined ? undefined : new Set(options.operations);
  const operations = openApiOperations(doc, (name, operationId) => wanted === undefined || wanted.has(name) || wanted.has(operationId ?? ''));
  if (wanted !== undefined) {
    const missing = [...wanted].filter((name) => !operations.some((operation) => operation.toolName === name || operation.operationId === name));
    if (missing.length > 0) throw new ConfigurationError(`The document has no operation named ${missing.join(', ')}.`, { missing });
  }
  const schemes = securitySchemes(doc);
  // Traces, the live view and error messages redact these wherever they turn up.
  registerSecrets(credentialSecrets(options.auth ?? {}));
  return operations.map((operation) => operationTool(operation, schemes, options));
}

type Schemes = ReturnType<typeof securitySchemes>;

function operationTool(operation: OpenApiOperation, schemes: Schemes, options: OpenApiToolsOptions): AnyTool {
  const base = baseUrlOf(operation, options.baseUrl);
  const reserved = reservedParameterNames(schemes, options);
  const parameters = operation.parameters
    .filter((parameter) => !suppliedByCaller(parameter, schemes, options, reserved))
    .map((parameter) => ({ ...parameter, schema: explicitAdditionalProperties(parameter.schema) }));
  const credentials = uniqueCredentials([...credentialsFor(operation, options.auth ?? {}), ...credentialParameters(operation, schemes, options)]);
  const secrets = [...credentials.map((credential) => credential.value), ...credentialSecrets(options.auth ?? {})];
  const { jsonSchema, zodSchema } = argumentsSchema(parameters, operation);
  const label = `${operation.method} ${operation.path}`;
  const timeoutMs = options.timeoutMs ?? DEFAULT_OPENAPI_TIMEOUT_MS;
  const maxResponseChars = options.maxResponseChars ?? OPENAPI_MAX_RESPONSE_CHARS;
  const maxResponseBytes = options.maxResponseBytes ?? OPENAPI_MAX_RESPONSE_BYTES;

  const tool = defineTool({
    name: operation.toolName,
    description: operation.description,
    parameters: zodSchema,
    execute: (args, ctx): Promise<unknown> => {
      const serialized = serializeParameters(operation.path, parameters, args);
      checkReservedParameters(serialized, reserved, label);
      const url = requestUrl(base, serialized.path, label);
      for (const [name, value] of Object.entries(options.query ?? {})) url.searchParams.append(name, value);
      for (const [name, value] of serialized.query) url.searchParams.append(name, value);
      const headers = requestHeaders(serialized.headers, serialized.cookies, options.headers ?? {});
      const body = requestBody(operation, args, headers);
      applyCredentials(url, headers, credentials);
      return sendOpenApiRequest({
        label,
        url,
        method: operation.method,
        headers,
        body,
        timeoutMs,
        maxResponseChars,
        maxResponseBytes,
        secrets,
        signal: ctx.signal,
      });
    },
  });
  const modelSchema = literalsAsEnums(jsonSchema);
  return { ...tool, jsonSchema: modelSchema, spec: { ...tool.spec, parameters: modelSchema } };
}

/** The tool's arguments: the JSON Schema the model sees and the zod schema that validates it. */
function argumentsSchema(parameters: readonly OperationParameter[], operation: OpenApiOperation) {
  const properties: Record<string, JsonSchema> = {};
  const required: string[] = [];
  const shape: Record<string, z.ZodType> = {};
  const fields = [
    ...parameters.map((parameter) => ({ argument: parameter.argument, schema: parameter.schema, required: parameter.required })),
    ...(operation.body ? [{ argument: operation.body.argument, schema: operation.body.schema, required: operation.body.required }] : []),
  ];
  for (const field of fields) {
    setOwn(properties, field.argument, field.schema);
    if (field.required) required.push(field.argument);
    const validator = validatorFor(field.schema);
    setOwn(shape, field.argument, field.required ? validator : validator.optional());
  }
  const jsonSchema: JsonSchema = { type: 'object', properties };
  if (required.length > 0) jsonSchema.required = required;
  return { jsonSchema, zodSchema: z.object(shape) };
}

/** zod's JSON Schema converter; a schema it cannot express is accepted as is (the server still validates). */
function validatorFor(schema: JsonSchema): z.ZodType {
  try {
    return z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
  } catch {
    return z.unknown();
  }
}

const sameParameter = (parameter: OperationParameter, location: string, name: string) =>
  parameter.in === location && (location === 'header' ? parameter.name.toLowerCase() === name.toLowerCase() : parameter.name === name);

/**
 * A parameter the caller supplies, never the model: one named in the `headers`
 * or `query` options, or one where any security scheme of the document puts
 * its credential (e.g. an `api_key` header).
 */
function suppliedByCaller(parameter: OperationParameter, schemes: Schemes, options: OpenApiToolsOptions, reserved: ReadonlySet<string>): boolean {
  // A reserved name (a fixed parameter or a credential, in whatever location) is never the model's to set.
  if (parameter.in !== 'path' && reserved.has(parameter.name.toLowerCase())) return true;
  if (Object.keys(options.headers ?? {}).some((name) => sameParameter(parameter, 'header', name))) return true;
  if (Object.keys(options.query ?? {}).some((name) => sameParameter(parameter, 'query', name))) return true;
  return schemes.some(({ scheme }) => {
    const location = credentialLocation(scheme);
    return location !== undefined && sameParameter(parameter, location.in, location.name);
  });
}

/** Credentials for parameters that are a scheme's credential slot (filled from `auth` when the caller gave one). */
function credentialParameters(operation: OpenApiOperation, schemes: Schemes, options: OpenApiToolsOptions): PlacedCredential[] {
  const auth = options.auth ?? {};
  return schemes.flatMap(({ name, scheme }) => {
    const location = credentialLocation(scheme);
    const credential = auth[name];
    if (location === undefined || credential === undefined || (location.in === 'header' && location.name === 'Authorization')) return [];
    const declared = operation.parameters.some((parameter) => sameParameter(parameter, location.in, location.name));
    return declared ? placeCredential(name, scheme, credential) : [];
  });
}

function baseUrlOf(operation: OpenApiOperation, baseUrl: string | undefined): URL {
  const raw = baseUrl ?? operation.serverUrl;
  let url: URL | undefined;
  try {
    url = raw === undefined ? undefined : new URL(raw);
  } catch {
    url = undefined;
  }
  if (url === undefined || !['http:', 'https:'].includes(url.protocol)) {
    throw new ConfigurationError(
      baseUrl !== undefined
        ? `baseUrl ${JSON.stringify(baseUrl)} is not an absolute http(s) URL.`
        : `The document's server URL ${JSON.stringify(raw ?? '/')} for operation "${operation.toolName}" is not an absolute http(s) URL: pass \`baseUrl\`.`,
      { baseUrl, serverUrl: operation.serverUrl },
    );
  }
  return url;
}

/** The request URL: the base URL's path plus the operation's path; it may not leave the base. */
function requestUrl(base: URL, path: string, label: string): URL {
  const segments = path.split('/');
  if (segments.some((segment) => segment === '.' || segment === '..' || /^%2e(%2e)?$/i.test(segment) || /^\.%2e$|^%2e\.$/i.test(segment))) {
    throw new ToolError(`${label}: a path parameter may not be "." or "..".`);
  }
  const basePath = base.pathname.replace(/\/+$/, '');
  const url = new URL(base.href);
  url.pathname = `${basePath}${path}`;
  if (url.origin !== base.origin || !url.pathname.startsWith(basePath)) {
    throw new ToolError(`${label}: the arguments would send the request outside the API's server.`);
  }
  return url;
}

function requestHeaders(
  parameterHeaders: readonly [string, string][],
  cookies: readonly [string, string][],
  fixed: Readonly<Record<string, string>>,
): Headers {
  const headers = new Headers({ accept: 'application/json, text/plain;q=0.9, */*;q=0.8' });
  for (const [name, value] of [...Object.entries(fixed), ...parameterHeaders]) {
    if (/[\r\n\0]/.test(value)) throw new ToolError(`Header "${name}" may not contain line breaks.`);
    headers.set(name, value);
  }
  if (cookies.length > 0) headers.set('cookie', cookies.map(([name, value]) => `${name}=${encodeURIComponent(value)}`).join('; '));
  return headers;
}

function requestBody(operation: OpenApiOperation, args: Record<string, unknown>, headers: Headers): string | URLSearchParams | FormData | undefined {
  const spec = operation.body;
  const value = spec === undefined ? undefined : args[spec.argument];
  if (spec === undefined || value === undefined) return undefined;
  const text = (item: unknown) => (typeof item === 'object' && item !== null ? JSON.stringify(item) : String(item));
  if (spec.mediaType === 'application/x-www-form-urlencoded' || spec.mediaType === 'multipart/form-data') {
    const fields = typeof value === 'object' && value !== null ? Object.entries(value).filter(([, item]) => item !== undefined && item !== null) : [];
    if (spec.mediaType === 'multipart/form-data') {
      const form = new FormData();
      for (const [name, item] of fields) form.append(name, text(item));
      return form; // fetch sets the content type with its boundary
    }
    headers.set('content-type', spec.mediaType);
    return new URLSearchParams(fields.map(([name, item]) => [name, text(item)]));
  }
  headers.set('content-type', spec.mediaType);
  return spec.mediaType.includes('json') ? JSON.stringify(value) : text(value);
}

function applyCredentials(url: URL, headers: Headers, credentials: readonly PlacedCredential[]): void {
  const cookies: string[] = [];
  for (const credential of credentials) {
    if (credential.in === 'header') headers.set(credential.name, credential.value);
    else if (credential.in === 'query') url.searchParams.set(credential.name, credential.value);
    else cookies.push(`${credential.name}=${encodeURIComponent(credential.value)}`);
  }
  if (cookies.length > 0) headers.set('cookie', [headers.get('cookie'), ...cookies].filter(Boolean).join('; '));
}

function uniqueCredentials(credentials: readonly PlacedCredential[]): PlacedCredential[] {
  const seen = new Set<string>();
  return credentials.filter((credential) => {
    const key = `${credential.in}:${credential.in === 'header' ? credential.name.toLowerCase() : credential.name}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** The `headers` option is the caller's: a bad one fails here, not as a tool result the model reads. */
function checkFixedHeaders(headers: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(headers)) {
    try {
      if (typeof value !== 'string' || /[\r\n\0]/.test(value)) throw new TypeError('not a single-line string');
      new Headers([[name, value]]);
    } catch {
      throw new ConfigurationError(`The headers option has an invalid header "${name}": use a valid header name and a single-line string value.`, {
        header: name,
      });
    }
  }
}

function checkAuthNames(document: OpenApiDocument, auth: Readonly<Record<string, OpenApiCredential>>): void {
  const components = document.components as { securitySchemes?: Record<string, unknown> } | undefined;
  const known = Object.keys(components?.securitySchemes ?? {});
  const unknown = Object.keys(auth).filter((name) => !known.includes(name));
  if (unknown.length > 0) {
    throw new ConfigurationError(
      `auth names ${unknown.map((name) => JSON.stringify(name)).join(', ')}, which the document does not define as security schemes` +
        (known.length > 0 ? ` (it defines ${known.join(', ')}).` : ' (it defines none).'),
      { unknown, known },
    );
  }
}

/** The raw credential values of `auth` (a basic pair also as `user:password`), for redaction. */
function credentialSecrets(auth: Readonly<Record<string, OpenApiCredential>>): string[] {
  return Object.values(auth).flatMap((credential) =>
    typeof credential === 'string'
      ? [credential]
      : [
          credential.password,
          `${credential.username}:${credential.password}`,
          Buffer.from(`${credential.username}:${credential.password}`, 'utf8').toString('base64'),
        ],
  );
}
