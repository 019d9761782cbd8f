/**
 * Which key names hold secrets. A key is split into words (camelCase,
 * snake_case, kebab-case, dots, spaces; compared without case) and is secret
 * when one of its words is a secret word, or a compound such as `apikey`,
 * `accesstoken` or `clientsecret`.
 *
 * Deliberate choices, to keep traces readable:
 * - Whole words only: `keyboard`, `pinned`, `author`, `monkey` are not secret.
 * - `key` alone is a name, not a secret (shared-state changes, map entries,
 *   sort keys): `{ key: 'city' }` stays; with another word it is a secret
 *   (`api_key`, `openaiKey`, `x-api-key`, `aws_secret_access_key`).
 * - `tokens` (plural) counts tokens (`maxTokens`, `inputTokens`) and is not a
 *   secret; `token`, `accessToken`, `refresh_token` are.
 */
const SECRET_WORDS = new Set([
  'secret',
  'secrets',
  'token',
  'password',
  'passwords',
  'passwd',
  'pwd',
  'passphrase',
  'pin',
  'credential',
  'credentials',
  'auth',
  'authorization',
  'authentication',
  'cookie',
  'cookies',
  'session',
  'private',
  'bearer',
  'apikey',
  'securityschemes',
  'setcookie',
]);

/** One word that ends in a secret word: `apikey`, `accesstoken`, `clientsecret`, `privatekey`, `dbpassword`. */
const SECRET_COMPOUND = /^(?:[a-z0-9]+(?:key|token|secret|password|passwd|credentials?)|(?:auth|session)[a-z]*id)$/;
/** Compounds ending in "key" that are ordinary names. */
const ORDINARY_KEY_WORDS = new Set(['monkey', 'turkey', 'donkey', 'hockey', 'jockey', 'whiskey', 'hotkey', 'passkey']);

/** Keys repeat endlessly in snapshots: their verdicts are remembered (a bounded number of them). */
const verdicts = new Map<string, boolean>();
const MAX_REMEMBERED_KEYS = 10_000;

/**
 * Whether a key names a secret.
 *
 * @example
 * isSecretKeyName('aws_secret_access_key'); // true
 * isSecretKeyName('openaiKey'); // true
 * isSecretKeyName('keyboard'); // false
 * isSecretKeyName('inputTokens'); // false
 */
export function isSecretKeyName(key: string): boolean {
  let known = verdicts.get(key);
  if (known === undefined) {
    known = judge(key);
    if (verdicts.size < MAX_REMEMBERED_KEYS) verdicts.set(key, known);
  }
  return known;
}

function judge(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  if (words.length === 0) return false;
  if (SECRET_WORDS.has(words.join(''))) return true; // securitySchemes, Set-Cookie, api-key
  if (words.some((word) => SECRET_WORDS.has(word))) return true;
  if (words.some((word) => SECRET_COMPOUND.test(word) && !ORDINARY_KEY_WORDS.has(word) && !word.endsWith('tokens'))) return true;
  // "key" with another word: api_key, openaiKey, x-api-key, access-key-id.
  return words.length > 1 && words.includes('key');
}
