import { resumeChatFromStore, resumeRunFromStore, startChatInStore, startRunInStore } from '@agentchart/actors';
import type { RunStore } from '@agentchart/core';
import type { A2aTarget } from './servedA2aTargets.js';
import { type ServedRun, servedAgentRun, servedChatRun } from './servedRun.js';

/** Where served runs are kept: a store (tasks are its runs and chats), and the lease owner this server takes. */
export interface ServedStore {
  readonly store: RunStore;
  readonly owner?: string | undefined;
  readonly leaseMs?: number | undefined;
}

/** Starts the run of a new task: the task id is the run's (or chat's) id, in the store when there is one. */
export async function startServedRun(target: A2aTarget, taskId: string, input: string, kept: ServedStore | undefined): Promise<ServedRun> {
  if (kept === undefined) {
    return target.kind === 'agent' ? servedAgentRun(target.agent.run(input)) : servedChatRun(target.chat.run(input, { chatId: taskId }));
  }
  const options = storeOptions(kept);
  if (target.kind === 'agent') return servedAgentRun((await startRunInStore(target.agent, input, { ...options, runId: taskId })).run);
  return servedChatRun((await startChatInStore(target.chat, input, { ...options, chatId: taskId })).chat);
}

/** Continues a task's run from the store (after this server, or another, stopped). */
export async function resumeServedRun(target: A2aTarget, taskId: string, kept: ServedStore): Promise<ServedRun> {
  const options = storeOptions(kept);
  if (target.kind === 'agent') return servedAgentRun((await resumeRunFromStore(target.agent, taskId, options)).run);
  return servedChatRun((await resumeChatFromStore(target.chat, taskId, options)).chat);
}

function storeOptions(kept: ServedStore) {
  return {
    store: kept.store,
    ...(kept.owner === undefined ? {} : { owner: kept.owner }),
    ...(kept.leaseMs === undefined ? {} : { leaseMs: kept.leaseMs }),
  };
}
