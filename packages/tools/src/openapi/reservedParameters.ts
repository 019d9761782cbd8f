import { ToolError } from '@agentchart/core';
import type { OpenApiObject } from './openApiDocument.js';
import { credentialLocation } from './securityCredentials.js';
import type { SerializedParameters } from './serializeParameters.js';

/**
 * Names only the caller sets, compared without case in every location (path
 * aside): the fixed `query` and `headers` options, where every security scheme
 * of the document puts its credential (`api_key`, `X-API-Key`, …), and the
 * `Authorization` and `Cookie` headers.
 *
 * @example
 * reservedParameterNames(schemes, { query: { tenant: 'acme' } }); // Set { 'tenant', 'authorization', 'cookie', ... }
 */
export function reservedParameterNames(
  schemes: readonly { scheme: OpenApiObject }[],
  options: { query?: Readonly<Record<string, string>>; headers?: Readonly<Record<string, string>> },
): ReadonlySet<string> {
  const names = new Set(['authorization', 'cookie', 'proxy-authorization']);
  for (const name of [...Object.keys(options.query ?? {}), ...Object.keys(options.headers ?? {})]) names.add(name.toLowerCase());
  for (const { scheme } of schemes) {
    const location = credentialLocation(scheme);
    if (location !== undefined) names.add(location.name.toLowerCase());
  }
  return names;
}

/**
 * Throws a `ToolError` the model reads when its arguments would send a
 * reserved name — as a query parameter (a free-form object exploded into
 * `?name=value` pairs), a header or a cookie — so that it can neither
 * duplicate the caller's fixed parameters nor set a credential.
 */
export function checkReservedParameters(serialized: SerializedParameters, reserved: ReadonlySet<string>, label: string): void {
  const pairs = [
    ...serialized.query.map(([name]) => ['query parameter', name] as const),
    ...serialized.headers.map(([name]) => ['header', name] as const),
    ...serialized.cookies.map(([name]) => ['cookie', name] as const),
  ];
  for (const [where, name] of pairs) {
    if (!reserved.has(name.toLowerCase())) continue;
    throw new ToolError(
      `${label}: the arguments would send the ${where} "${name}", which only the caller sets (a fixed parameter or a credential). ` +
        'Leave it out of the arguments.',
      { parameter: name, location: where },
    );
  }
}
