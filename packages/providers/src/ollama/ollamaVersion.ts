/**
 * The first Ollama version that applies `format` to a parser-based thinking
 * model when `think: false` is sent (ollama#14645, #15260 fixed in 0.31.2):
 * from it on, a forced step sends `think: false` and the grammar holds.
 */
export const THINK_FALSE_KEEPS_FORMAT = '0.31.2';

/**
 * Compares two dotted versions numerically (`0.31.10` > `0.31.2`); a
 * pre-release or build suffix (`0.32.0-rc1`) counts as its release.
 *
 * @example
 * compareVersions('0.31.2', '0.31.10'); // -1
 */
export function compareVersions(a: string, b: string): number {
  const parts = (version: string) =>
    version
      .replace(/^v/, '')
      .split(/[-+]/)[0]
      ?.split('.')
      .map((part) => Number.parseInt(part, 10) || 0) ?? [];
  const left = parts(a);
  const right = parts(b);
  for (let index = 0; index < Math.max(left.length, right.length); index++) {
    const difference = (left[index] ?? 0) - (right[index] ?? 0);
    if (difference !== 0) return Math.sign(difference);
  }
  return 0;
}

/**
 * The version an Ollama server reports at `/api/version`, or undefined when
 * it does not answer in `timeoutMs` (a proxy, an old server). Never throws.
 *
 * @example
 * await ollamaServerVersion('http://127.0.0.1:11434', {}); // '0.33.0'
 */
export async function ollamaServerVersion(host: string, headers: Record<string, string>, timeoutMs = 3000): Promise<string | undefined> {
  try {
    const response = await fetch(`${host}/api/version`, { headers, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return undefined;
    const text = await response.text();
    if (text.length > 10_000) return undefined;
    const version = (JSON.parse(text) as { version?: unknown }).version;
    return typeof version === 'string' ? version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * What a forced step does with `think` on a server of this version, so that
 * `format` applies: `'false'` sends `think: false` (0.31.2 and later);
 * `'no-false'` leaves out a configured `think: false`, which older servers
 * answer by ignoring `format` (the model thinks, and the grammar applies
 * after the thinking); `'as-configured'` when the version is unknown.
 *
 * @example
 * forcedThink('0.33.0'); // 'false'
 */
export function forcedThink(version: string | undefined): 'false' | 'no-false' | 'as-configured' {
  if (version === undefined) return 'as-configured';
  return compareVersions(version, THINK_FALSE_KEEPS_FORMAT) >= 0 ? 'false' : 'no-false';
}
