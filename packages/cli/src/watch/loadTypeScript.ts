import { MissingPackageError } from '../cliErrors.js';
import { loadOptional } from '../loadOptional.js';

let registered = false;

/**
 * Makes a TypeScript script importable: through tsx when it is installed,
 * else through Node's own type stripping (Node 22.18+, 24); on a Node
 * without it and no tsx, says to install tsx. JavaScript needs nothing.
 *
 * @example
 * await prepareToImport('file:///app/team.ts', { loadsTypeScript: false });
 */
export async function prepareToImport(moduleUrl: string, context: { loadsTypeScript: boolean }): Promise<void> {
  if (context.loadsTypeScript || registered || !/\.[mc]?ts$/.test(moduleUrl)) return;
  let tsx: { register(): unknown };
  try {
    tsx = await loadOptional(() => import('tsx/esm/api'), 'tsx', 'a TypeScript script');
  } catch (error) {
    if (!(error instanceof MissingPackageError)) throw error;
    if ((process.features as { typescript?: unknown }).typescript) return;
    throw new MissingPackageError('tsx', `${moduleUrl.split('/').pop()} is TypeScript: running it on Node ${process.versions.node}`);
  }
  tsx.register();
  registered = true;
}
