/**
 * The system error code (`ECONNREFUSED`, `ENOTFOUND`, `ECONNRESET`, ...)
 * behind a failed fetch, found by walking `cause` and `AggregateError.errors`.
 *
 * @example
 * try { await fetch('http://127.0.0.1:1') } catch (e) { networkErrorCode(e) } // 'ECONNREFUSED'
 */
export function networkErrorCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  const nested = (error as { errors?: unknown }).errors;
  if (Array.isArray(nested)) {
    for (const inner of nested) {
      const innerCode = networkErrorCode(inner, depth + 1);
      if (innerCode) return innerCode;
    }
  }
  return networkErrorCode((error as { cause?: unknown }).cause, depth + 1);
}

/** A short phrase for a network error code, for messages. */
export function describeNetworkError(code: string | undefined): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'host name not found';
    case 'ECONNRESET':
      return 'connection reset';
    case 'ETIMEDOUT':
      return 'connection timed out';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'host unreachable';
    default:
      return code ?? 'network error';
  }
}

/** The message of an error and of its causes, joined, for error details. */
export function errorChainMessage(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    parts.push(current.message);
    current = (current as { cause?: unknown }).cause;
  }
  return parts.length > 0 ? parts.join(': ') : String(error);
}
