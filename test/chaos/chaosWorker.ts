/**
 * A crash-test worker: resumes the trial's stored run as soon as no other
 * owner holds it, plays the person who decides approvals and in-doubt calls
 * (an in-doubt call whose effect is in the ledger gets that result recorded
 * by hand; otherwise it is approved to run again), and exits when the run is
 * finished. The driver may SIGKILL it at any point.
 * With CHAOS_MODE=chat it runs the trial's group chat instead (`chaosChat`):
 * it starts it in the store when nobody has, else resumes it, and plays the
 * person (approvals as above, and the `boss` turn); with CHAOS_MODE=nested,
 * the same chat nested in another (`chaosNestedChat`), its waits reached
 * through the outer chat.
 * Env: CHAOS_DB, CHAOS_LEDGER, CHAOS_RUN_ID, CHAOS_LEASE_MS, CHAOS_MODE.
 */
import { RunOwnedElsewhereError, RunStoreError } from '@agentchart/core';
import { type DurableChat, resumeChatFromStore, resumeRunFromStore, startChatInStore } from '@agentchart/actors';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { chaosAgent, readLedger } from './chaosAgent.js';
import { chaosChat, chaosNestedChat } from './chaosChat.js';

const env = (name: string) => process.env[name] ?? '';
const ledger = env('CHAOS_LEDGER');
const runId = env('CHAOS_RUN_ID');
const leaseMs = Number(env('CHAOS_LEASE_MS'));
const store = await createSqliteRunStore({ path: env('CHAOS_DB'), busyTimeoutMs: 10_000 });
const agent = chaosAgent(ledger);
const say = (line: string) => process.stdout.write(`${line}\n`);
const owner = `worker-${process.pid}`;

/** Plays the person of a chat until it ends: approvals (in-doubt calls found in the ledger get that result recorded) and the boss's turn. */
async function playPerson(durable: DurableChat): Promise<void> {
  let ended = false;
  void durable.chat.result.finally(() => (ended = true)).catch(() => {});
  const decided = new Set<string>();
  let spoke = false;
  while (!ended) {
    const waiting = durable.chat.waiting();
    try {
      if (waiting?.kind === 'approval') {
        for (const request of waiting.requests) {
          if (decided.has(request.id)) continue;
          const doubt = durable.inDoubt.find((entry) => entry.callId === request.id);
          if (doubt && readLedger(ledger).includes(`${doubt.idempotencyKey} ${doubt.toolName}`)) {
            await durable.recordResult(doubt.callId, `${doubt.toolName} Bob done (found in the ledger)`);
          }
          durable.chat.approve(request.id);
          decided.add(request.id);
        }
      } else if (waiting?.kind === 'human' && !spoke) {
        durable.chat.say('Good. Done.');
        spoke = true;
      }
    } catch (error) {
      // A lost lease (the chat ends), or an answer the chat was no longer waiting for: look again.
      if (process.env.CHAOS_TRACE) say(`person: ${(error as Error).message}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 3));
  }
}

if (env('CHAOS_MODE') === 'chat' || env('CHAOS_MODE') === 'nested') {
  const chat = env('CHAOS_MODE') === 'nested' ? chaosNestedChat(ledger) : chaosChat(ledger);
  for (;;) {
    const stored = await store.loadRun(runId);
    if (stored?.status === 'finished') break;
    let durable: DurableChat;
    try {
      durable =
        stored?.state === undefined
          ? await startChatInStore(chat, 'Pay Bob 250, then check.', { store, chatId: runId, owner, leaseMs })
          : await resumeChatFromStore(chat, runId, { store, owner, leaseMs });
    } catch (error) {
      const taken = error instanceof RunOwnedElsewhereError || (error instanceof RunStoreError && error.code === 'RUN_ALREADY_EXISTS');
      if (!taken) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20)); // a killed owner's lease runs out
      continue;
    }
    say('resumed');
    const waiting = durable.chat.waiting();
    const pending = new Set(waiting?.kind === 'approval' ? waiting.requests.map((request) => request.id) : []);
    for (const entry of durable.inDoubt) {
      say(`indoubt ${entry.toolName} ${pending.has(entry.callId) || entry.toolName === 'refresh' ? 'surfaced' : 'unsurfaced'}`);
    }
    await playPerson(durable);
    const result = await durable.chat.result;
    await durable.settled;
    if (result.reason === 'aborted') say('leaselost'); // only a lost lease aborts here
  }
  await store.close();
  say('done');
  process.exit(0);
}

for (;;) {
  const stored = await store.loadRun(runId);
  if (stored === undefined || stored.status === 'finished') break;
  let durable: Awaited<ReturnType<typeof resumeRunFromStore>>;
  try {
    durable = await resumeRunFromStore(agent, runId, { store, owner, leaseMs });
  } catch (error) {
    if (!(error instanceof RunOwnedElsewhereError)) throw error;
    await new Promise((resolve) => setTimeout(resolve, 20)); // a killed owner's lease runs out
    continue;
  }
  say('resumed');
  if (process.env.CHAOS_TRACE)
    say(
      `pid ${process.pid} pending ${durable.run.pendingApprovals.map((r) => r.id)} indoubt ${durable.inDoubt.map((e) => e.callId)} journal ${JSON.stringify((await store.listCalls(runId)).map((c) => [c.callId, c.status]))}`,
    );
  try {
    const pending = new Set(durable.run.pendingApprovals.map((request) => request.id));
    for (const entry of durable.inDoubt) {
      say(`indoubt ${entry.toolName} ${pending.has(entry.callId) || entry.toolName === 'refresh' ? 'surfaced' : 'unsurfaced'}`);
    }
    for (const request of durable.run.pendingApprovals) {
      const doubt = durable.inDoubt.find((entry) => entry.callId === request.id);
      if (doubt && readLedger(ledger).includes(`${doubt.idempotencyKey} ${doubt.toolName}`)) {
        await durable.recordResult(doubt.callId, `${doubt.toolName} Bob done (found in the ledger)`);
      }
      durable.run.approve(request.id);
    }
    const { stopReason, error } = await durable.run.result;
    await durable.settled;
    if (stopReason === 'aborted' || error?.code === 'RUN_LEASE_LOST') say('leaselost'); // only a lost lease ends it so here
  } catch (error) {
    // A loaded machine can delay a renewal past the lease: the run was fenced (and aborted). Take it again.
    const code = (error as { code?: string }).code;
    if (code !== 'RUN_LEASE_LOST' && code !== 'APPROVAL_NOT_PENDING') throw error;
    durable.run.abort();
    say('leaselost');
  }
}
await store.close();
say('done');
