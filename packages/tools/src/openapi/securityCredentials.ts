import { ConfigurationError } from '@agentchart/core';
import type { OpenApiObject } from './openApiDocument.js';
import type { OpenApiOperation, ParameterLocation } from './openApiOperations.js';

/** A credential for one security scheme: a token or key, or a user name and password for HTTP basic. */
export type OpenApiCredential = string | { username: string; password: string };

/** A credential placed in a request. */
export interface PlacedCredential {
  in: Exclude<ParameterLocation, 'path'>;
  name: string;
  value: string;
}

/**
 * The credentials for an operation, from the caller's options only (the model
 * never supplies them): the first alternative of the operation's security
 * requirements whose schemes all have a credential. Bearer, basic and other
 * HTTP schemes go in `Authorization`; API keys where the scheme says; OAuth2
 * and OpenID Connect tokens as bearer tokens.
 */
export function credentialsFor(operation: OpenApiOperation, auth: Readonly<Record<string, OpenApiCredential>>): PlacedCredential[] {
  for (const alternative of operation.security) {
    if (!alternative.every(({ name }) => auth[name] !== undefined)) continue;
    return alternative.flatMap(({ name, scheme }) => placeCredential(name, scheme, auth[name] as OpenApiCredential));
  }
  return [];
}

/** Where a scheme puts its credential, so a parameter there is never asked of the model. */
export function credentialLocation(scheme: OpenApiObject): { in: PlacedCredential['in']; name: string } | undefined {
  if (scheme.type === 'apiKey' && typeof scheme.name === 'string' && ['header', 'query', 'cookie'].includes(String(scheme.in))) {
    return { in: scheme.in as PlacedCredential['in'], name: scheme.name };
  }
  if (scheme.type === 'http' || scheme.type === 'oauth2' || scheme.type === 'openIdConnect') return { in: 'header', name: 'Authorization' };
  return undefined;
}

/** Where and how a scheme sends a credential. */
export function placeCredential(name: string, scheme: OpenApiObject, credential: OpenApiCredential): PlacedCredential[] {
  const location = credentialLocation(scheme);
  if (location === undefined) {
    throw new ConfigurationError(`Security scheme "${name}" (type ${String(scheme.type)}) is not supported by toolsFromOpenAPI.`, { name });
  }
  if (scheme.type === 'apiKey') return [{ ...location, value: secretText(name, credential) }];
  const httpScheme = scheme.type === 'http' && typeof scheme.scheme === 'string' ? scheme.scheme.toLowerCase() : 'bearer';
  if (httpScheme === 'basic') {
    const pair = typeof credential === 'string' ? credential : `${credential.username}:${credential.password}`;
    return [{ ...location, value: `Basic ${Buffer.from(pair, 'utf8').toString('base64')}` }];
  }
  const label = httpScheme === 'bearer' ? 'Bearer' : String(scheme.scheme);
  return [{ ...location, value: `${label} ${secretText(name, credential)}` }];
}

function secretText(name: string, credential: OpenApiCredential): string {
  if (typeof credential === 'string') return credential;
  throw new ConfigurationError(`Security scheme "${name}" takes a string credential (a token or key), not a user name and password.`, { name });
}
