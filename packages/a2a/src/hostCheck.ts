import type { IncomingMessage } from 'node:http';

const LOOPBACK_BINDS = new Set(['127.0.0.1', 'localhost', '::1']);
const LOOPBACK_NAMES = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Whether a request may be answered, by its `Host`: a server bound to this
 * machine answers only to loopback names on its port (a page on another site
 * that rebinds its DNS name to 127.0.0.1 sends its own name and is refused);
 * a server bound elsewhere answers to the names in `allowedHosts`, or to any
 * when none are given.
 *
 * @example
 * hostAllowed(request, { bind: '127.0.0.1', port: 4000 }); // false for Host: evil.example:4000
 */
export function hostAllowed(
  request: IncomingMessage,
  options: { bind: string; port: number; allowedHosts?: readonly string[] | undefined },
): boolean {
  const host = request.headers.host?.toLowerCase();
  if (host === undefined) return false;
  if (LOOPBACK_BINDS.has(options.bind)) return LOOPBACK_NAMES.some((name) => host === `${name}:${options.port}`);
  if (options.allowedHosts === undefined) return true;
  const name = host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0];
  return options.allowedHosts.some((allowed) => allowed.toLowerCase() === name || allowed.toLowerCase() === host);
}
