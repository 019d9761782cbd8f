import type { IncomingMessage } from 'node:http';

/** Why a request was turned away. */
export interface HttpRefusal {
  status: 403 | 421;
  message: string;
}

/** Loopback names a client may use. */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * The gate of `serveMcp().serveHttp()`, as the live view's: the `Host`
 * header must name an allowed host with the port (a page on another site
 * that rebinds its DNS name to 127.0.0.1 sends its own name), and an
 * `Origin`, when a browser sends one, must be an allowed origin.
 *
 * @example
 * const access = httpAccess({ port: 3001, bindHost: '127.0.0.1' });
 * access.check(request); // undefined, or { status: 421, message }
 */
export function httpAccess(options: {
  port: number;
  bindHost: string;
  allowedHosts?: readonly string[] | undefined;
  allowedOrigins?: readonly string[] | undefined;
}): { check(request: IncomingMessage): HttpRefusal | undefined } {
  const bind = options.bindHost.includes(':') && !options.bindHost.startsWith('[') ? `[${options.bindHost}]` : options.bindHost;
  const names = options.allowedHosts ?? [
    ...LOOPBACK_HOSTS,
    ...(LOOPBACK_HOSTS.includes(bind) || bind === '[::]' || bind === '0.0.0.0' ? [] : [bind]),
  ];
  const hosts = new Set(names.map((name) => (name.includes(':') && !name.startsWith('[') ? name : `${name}:${options.port}`).toLowerCase()));
  const origins = new Set((options.allowedOrigins ?? names.map((name) => `http://${name}:${options.port}`)).map((origin) => origin.toLowerCase()));
  return {
    check(request) {
      const host = request.headers.host?.toLowerCase();
      if (host === undefined || !hosts.has(host)) {
        return {
          status: 421,
          message: `This MCP server answers only to ${[...hosts].join(', ')} in the Host header (\`allowedHosts\`).`,
        };
      }
      const origin = request.headers.origin;
      if (origin !== undefined && !origins.has(origin.toLowerCase())) {
        return { status: 403, message: 'This MCP server does not answer pages from other origins (`allowedOrigins`).' };
      }
      return undefined;
    },
  };
}
