import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { GroupChat } from '@agentchart/actors';
import { DbosChatError } from '../errors.js';

/**
 * Loads a worker module: it must export `chats`, an object of group chats by
 * name (the names `agentchart enqueue` uses).
 *
 * @example
 * const chats = await loadWorkerModule('./chats.ts');
 */
export async function loadWorkerModule(path: string): Promise<Record<string, GroupChat>> {
  let loaded: { chats?: unknown };
  try {
    loaded = (await import(pathToFileURL(resolve(path)).href)) as { chats?: unknown };
  } catch (error) {
    throw new DbosChatError(
      'WORKER_MODULE_INVALID',
      `Cannot load the worker module ${path}: ${error instanceof Error ? error.message : String(error)}`,
      { path },
      { cause: error },
    );
  }
  const chats = loaded.chats;
  if (typeof chats !== 'object' || chats === null || Object.keys(chats).length === 0) {
    throw new DbosChatError('WORKER_MODULE_INVALID', `${path} exports no chats: add \`export const chats = { review: createGroupChat({ … }) };\`.`, {
      path,
    });
  }
  for (const [name, chat] of Object.entries(chats)) {
    if ((chat as { kind?: unknown })?.kind !== 'group-chat') {
      throw new DbosChatError('WORKER_MODULE_INVALID', `chats.${name} in ${path} is not a group chat (createGroupChat(…)).`, { path, name });
    }
  }
  return chats as Record<string, GroupChat>;
}
