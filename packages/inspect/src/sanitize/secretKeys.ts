/**
 * Names of keys whose values are secrets: API keys, tokens, passwords,
 * authorization headers and the auth settings of OpenAPI tool factories.
 * Compared without case, `-` or `_`.
 */
const SECRET_KEY_NAMES = new Set([
  'apikey',
  'xapikey',
  'authorization',
  'proxyauthorization',
  'auth',
  'authentication',
  'bearer',
  'token',
  'password',
  'passwd',
  'passphrase',
  'secret',
  'cookie',
  'setcookie',
  'credential',
  'credentials',
  'privatekey',
  'securityschemes',
]);

const SECRET_KEY_SUFFIXES = ['apikey', 'token', 'secret', 'password', 'privatekey'];

/** Values that are secrets whatever their key: bearer/basic credentials and provider key shapes. */
const SECRET_VALUE = /^(?:(?:bearer|basic)\s+\S{8,}|sk-[a-z0-9_-]{16,}|gh[pousr]_[a-z0-9]{20,}|xox[abpr]-[a-z0-9-]{10,})$/i;

/** Keys repeat endlessly in snapshots: their verdicts are remembered (a bounded number of them). */
const verdicts = new Map<string, boolean>();
const MAX_REMEMBERED_KEYS = 10_000;

/**
 * Tells whether a key names a secret (`apiKey`, `Authorization`, `access_token`, …).
 *
 * @example
 * isSecretKey('apiKey'); // true
 * isSecretKey('inputTokens'); // false
 */
export function isSecretKey(key: string): boolean {
  let known = verdicts.get(key);
  if (known === undefined) {
    const normalized = key.toLowerCase().replace(/[-_\s]/g, '');
    known = SECRET_KEY_NAMES.has(normalized) || SECRET_KEY_SUFFIXES.some((suffix) => normalized.endsWith(suffix));
    if (verdicts.size < MAX_REMEMBERED_KEYS) verdicts.set(key, known);
  }
  return known;
}


/**
 * Tells whether a string looks like a credential (`Bearer …`, `sk-…`).
 *
 * @example
 * isSecretValue('Bearer abcdefgh12345'); // true
 */
export function isSecretValue(value: string): boolean {
  return SECRET_VALUE.test(value.trim());
}
