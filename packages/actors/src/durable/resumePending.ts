import { type AgentchartError, RunOwnedElsewhereError, RunSnapshotError, RunStoreError } from '@agentchart/core';
import type { Agent } from '../agent/agentTypes.js';
import type { GroupChat } from '../groupChat/configuredGroupChat.js';
import { ChatSnapshotError } from '../groupChat/groupChatErrors.js';
import type { StoreOptions } from '../storeOptions.js';
import { type DurableChat, heldChatResume, nextMacrotask } from './storedChats.js';
import { type DurableRun, resumeRunFromStore } from './storedRuns.js';

/** What `resumePending` did with each unfinished run and chat. */
export interface PendingResumes {
  resumed: DurableRun[];
  /** The chats resumed. */
  chats: DurableChat[];
  /** Runs and chats another owner holds, of no agent or chat given here, or not resumable. */
  skipped: {
    runId: string;
    reason: string /** What refused it (a damaged or refused checkpoint, a lease held elsewhere). */;
    error?: AgentchartError;
  }[];
}

/** What `resumePending` takes: where runs are kept, who this process is, and the agents and chats it may resume. */
export interface ResumePendingOptions extends StoreOptions {
  agents?: readonly Agent[];
  chats?: readonly GroupChat[];
  /**
   * Also take over what another owner holds, once its lease lapses: a
   * crashed owner (this process before a restart, under its old default
   * owner `<hostname>:<pid>`) stops renewing, so its runs are resumed when
   * their leases end (at most `leaseMs` after the crash). A live owner keeps
   * renewing: its runs stay in `skipped`. Default false: skip at once.
   */
  waitForLeases?: boolean;
}

/**
 * At process start: resumes every unfinished stored run of the given agents
 * and every unfinished chat of the given chats that no other owner holds,
 * from its last checkpoint (one that waited for a person waits again; the
 * others go on). With `waitForLeases`, what another owner holds is retried
 * once its lease has lapsed. Those still held, of no agent or chat given, or
 * not resumable are listed in `skipped` with the reason.
 *
 * @example
 * const { resumed, chats } = await resumePending({ store, owner: 'worker-1', agents: [payer], chats: [team] });
 * for (const { run } of resumed) notifyApprovers(run.pendingApprovals);
 */
export async function resumePending(options: ResumePendingOptions): Promise<PendingResumes> {
  const { agents = [], chats = [], waitForLeases = false, ...storeOptions } = options;
  const agentsByName = new Map(agents.map((agent) => [agent.name, agent]));
  const chatsByName = new Map(chats.map((chat) => [chat.name, chat]));
  const outcome: PendingResumes = { resumed: [], chats: [], skipped: [] };
  // The chats start once this resolves: the caller has them before their first event.
  let release!: () => void;
  const gathered = new Promise<void>((resolve) => (release = resolve)).then(nextMacrotask);
  const held: { expiresAt: number; runId: string; resume: () => Promise<void> }[] = [];
  for (const summary of await options.store.listUnfinished()) {
    const owner = summary.kind === 'run' ? agentsByName.get(summary.name) : chatsByName.get(summary.name);
    if (owner === undefined) {
      outcome.skipped.push({ runId: summary.runId, reason: `no ${summary.kind === 'run' ? 'agent' : 'chat'} named "${summary.name}" was given` });
      continue;
    }
    const resume = async () => {
      if (summary.kind === 'run') outcome.resumed.push(await resumeRunFromStore(owner as Agent, summary.runId, storeOptions));
      else outcome.chats.push(await heldChatResume(owner as GroupChat, summary.runId, storeOptions, gathered));
    };
    try {
      await resume();
    } catch (error) {
      if (waitForLeases && error instanceof RunOwnedElsewhereError) held.push({ expiresAt: error.expiresAt, runId: summary.runId, resume });
      else skip(outcome, summary.runId, error);
    }
  }
  // The lapsed leases, soonest first: each is tried once more when it has ended.
  for (const entry of held.sort((a, b) => a.expiresAt - b.expiresAt)) {
    const wait = entry.expiresAt - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait + LEASE_CLOCK_MARGIN_MS));
    try {
      await entry.resume();
    } catch (error) {
      skip(outcome, entry.runId, error);
    }
  }
  release();
  return outcome;
}

/** Waited beyond a lease's end before taking it over, so the store's clock has passed it too. */
const LEASE_CLOCK_MARGIN_MS = 20;

/** Held by another owner, or not resumable (created but never checkpointed, refused, its rows damaged): leave it, say why. */
function skip(outcome: PendingResumes, runId: string, error: unknown): void {
  const damaged = error instanceof RunStoreError && error.code === 'STORE_DATA_INVALID';
  if (!(error instanceof RunOwnedElsewhereError) && !(error instanceof RunSnapshotError) && !(error instanceof ChatSnapshotError) && !damaged)
    throw error;
  outcome.skipped.push({ runId, reason: error.message, error });
}
