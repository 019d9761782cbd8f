import { REDACTED } from '@agentchart/core';
import { MIN_REGISTERED_SECRET_LENGTH } from '@agentchart/core/internal';

/**
 * Removes the values of a server's headers and environment variables (and
 * its URL's query and credentials) from any text before it leaves the MCP
 * client: error messages, stderr excerpts, tool results the model reads.
 *
 * @example
 * const redact = secretRedactor(['sk-live-123456']);
 * redact('401: bad token sk-live-123456'); // '401: bad token [redacted]'
 */
export function secretRedactor(secrets: Iterable<string>): (text: string) => string {
  const values = [...new Set([...secrets].filter((value) => typeof value === 'string' && value.length >= MIN_REGISTERED_SECRET_LENGTH))].sort(
    (a, b) => b.length - a.length,
  );
  if (values.length === 0) return (text) => text;
  return (text) => {
    let out = text;
    for (const value of values) out = out.split(value).join(REDACTED);
    return out;
  };
}

/**
 * The secrets of a URL: its password, user name and query values (a token
 * in `?key=` is common). The text shown for the URL is `safeUrl`.
 */
export function urlSecrets(url: URL): string[] {
  return [url.password, url.username, ...url.searchParams.values(), url.search.slice(1)].filter((value) => value !== '');
}

/** A URL as errors may show it: origin and path, no credentials, no query. */
export function safeUrl(url: URL): string {
  return `${url.origin}${url.pathname}`;
}
