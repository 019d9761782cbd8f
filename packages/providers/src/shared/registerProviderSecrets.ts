import { registerSecrets } from '@agentchart/core';
import { isSecretKeyName } from '@agentchart/core/internal';
import { PLACEHOLDER_API_KEY } from '../constants.js';

/**
 * Registers a provider's credentials with the redaction service, so that a
 * server error echoing them (`Incorrect API key provided: sk-…`), a trace or
 * the live view never shows them: the API key, and the values of secret-named
 * headers (`Authorization`, `x-api-key`, …) with and without their scheme
 * word. The placeholder key for local servers is not a secret.
 *
 * @example
 * registerProviderSecrets(apiKey, { Authorization: `Bearer ${token}` });
 */
export function registerProviderSecrets(apiKey: string | undefined, headers: Readonly<Record<string, string>> | undefined): void {
  const values: string[] = [];
  if (apiKey !== undefined && apiKey !== PLACEHOLDER_API_KEY) values.push(apiKey);
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (!isSecretKeyName(name) || typeof value !== 'string') continue;
    values.push(value);
    const credential = /^\S+\s+(\S.*)$/.exec(value)?.[1];
    if (credential !== undefined) values.push(credential);
  }
  registerSecrets(values);
}
