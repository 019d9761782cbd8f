import { MissingPackageError } from './cliErrors.js';

/**
 * Loads the module of a command that needs an optional package; when that
 * package is missing, throws a `MissingPackageError` that says what to
 * install. Any other failure to load passes through.
 *
 * @example
 * const { diagramCommand } = await loadOptional(() => import('./diagram/diagramCommand.js'), '@agentchart/inspect', 'agentchart diagram');
 */
export async function loadOptional<T>(load: () => Promise<T>, packageName: string, what: string): Promise<T> {
  try {
    return await load();
  } catch (error) {
    if (isMissing(error, packageName)) throw new MissingPackageError(packageName, what);
    throw error;
  }
}

function isMissing(error: unknown, packageName: string): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') && typeof message === 'string' && message.includes(`'${packageName}`);
}
