import type { IncomingMessage } from 'node:http';

/** Who may call the server beside loopback: extra `Host` names and browser origins. */
export interface AccessOptions {
  /** Host names (without port) a request may name in `Host` besides 127.0.0.1, localhost and [::1]. */
  allowedHosts?: readonly string[];
  /** Browser origins (`https://app.example.com`) whose pages may call the server; loopback on the server's port always may. */
  allowedOrigins?: readonly string[];
}

const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost', '[::1]'];

/**
 * Checks `Host` (a page whose DNS name was rebound to this machine sends its
 * own name: 421) and, when a browser sends one, `Origin` (a page of another
 * site: 403), as the live view does.
 */
export function checkAccess(
  request: IncomingMessage,
  port: number,
  options: AccessOptions,
): { ok: true; origin: string | undefined } | { ok: false; status: 403 | 421; message: string } {
  const hosts = [...LOOPBACK_HOSTS, ...(options.allowedHosts ?? [])].map((name) => `${name.toLowerCase()}:${port}`);
  const host = request.headers.host?.toLowerCase();
  if (host === undefined || !hosts.includes(host)) {
    return { ok: false, status: 421, message: `This AG-UI server answers only to ${hosts.join(', ')}: add the name to allowedHosts (--allow-host).` };
  }
  const origin = request.headers.origin;
  if (origin === undefined) return { ok: true, origin };
  if ((options.allowedOrigins ?? []).includes(origin) || isLoopbackOrigin(origin, port)) return { ok: true, origin };
  return { ok: false, status: 403, message: `Pages of ${origin} may not call this AG-UI server: add the origin to allowedOrigins (--allow-origin).` };
}

function isLoopbackOrigin(origin: string, port: number): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && url.port === String(port) && LOOPBACK_HOSTS.includes(url.hostname);
  } catch {
    return false;
  }
}
