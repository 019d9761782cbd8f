import { containsSecretShape, isSecretKeyName, registeredSecrets } from '@agentchart/core/internal';

/**
 * Tells whether a key names a secret (`apiKey`, `Authorization`,
 * `aws_secret_access_key`, `pin`, …): the redaction service's key patterns
 * (`isSecretKeyName` in `@agentchart/core`; SECURITY.md lists them).
 *
 * @example
 * isSecretKey('apiKey'); // true
 * isSecretKey('inputTokens'); // false
 */
export function isSecretKey(key: string): boolean {
  return isSecretKeyName(key);
}

/**
 * Tells whether a string holds a credential: a well-known token shape
 * (`Bearer …`, `sk-…`, a JWT, …) or a registered credential value, anywhere in it.
 *
 * @example
 * isSecretValue('Bearer abcdefgh12345'); // true
 */
export function isSecretValue(value: string): boolean {
  return containsSecretShape(value) || registeredSecrets().some((secret) => value.includes(secret));
}
