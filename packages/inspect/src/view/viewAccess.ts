import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** Loopback names a browser may use for the live view (DNS rebinding sends another name). */
const LOOPBACK_HOSTS = ['127.0.0.1', 'localhost'];

/** Why a request was turned away, or `undefined` when it may be answered. */
export interface ViewRefusal {
  status: 403 | 404 | 421;
  message: string;
}

/** Who may read a live view: the per-launch token in the path, loopback Host and Origin. */
export interface ViewAccess {
  /** The token, a fresh random value per launch. */
  readonly token: string;
  /**
   * Checks a request and returns the path below the token (`/`, `/events`,
   * …), or a refusal.
   */
  check(request: IncomingMessage, port: number): { path: string } | ViewRefusal;
}

/**
 * The live view's gate. Pages and data are served under `/<token>/`, where
 * the token is 144 random bits made at launch and printed only in the view's
 * URL; a request must also name a loopback host in `Host` (so a page on
 * another site that rebinds its DNS name to 127.0.0.1 is refused) and, when
 * the browser sends one, a loopback `Origin` on the same port.
 *
 * @example
 * const access = viewAccess();
 * const verdict = access.check(request, port);
 * if ('status' in verdict) reply(response, verdict.status, verdict.message);
 */
export function viewAccess(token: string = randomBytes(18).toString('base64url')): ViewAccess {
  const expected = Buffer.from(token);
  return {
    token,
    check(request, port) {
      if (!isLoopbackHost(request.headers.host, port)) {
        return { status: 421, message: 'The live view answers only to 127.0.0.1 and localhost: open the URL it printed.' };
      }
      const origin = request.headers.origin;
      if (origin !== undefined && !isLoopbackOrigin(origin, port)) {
        return { status: 403, message: 'The live view does not answer pages from other origins.' };
      }
      const path = new URL(request.url ?? '/', 'http://localhost').pathname;
      const [, first = '', ...rest] = path.split('/');
      const given = Buffer.from(first);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return { status: 403, message: 'This live view needs the token in its URL: open the exact address `agentchart view` printed.' };
      }
      if (rest.length === 0) return { status: 404, message: 'Not found: the page is at the printed URL, ending in "/".' };
      return { path: `/${rest.join('/')}` };
    },
  };
}

function isLoopbackHost(host: string | undefined, port: number): boolean {
  if (host === undefined) return false;
  return LOOPBACK_HOSTS.some((name) => host.toLowerCase() === `${name}:${port}`);
}

function isLoopbackOrigin(origin: string, port: number): boolean {
  try {
    const url = new URL(origin);
    return url.protocol === 'http:' && url.port === String(port) && LOOPBACK_HOSTS.includes(url.hostname);
  } catch {
    return false;
  }
}
