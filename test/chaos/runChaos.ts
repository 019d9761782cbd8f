/**
 * `npx pnpm@12.4.2 chaos [trials]`: the crash test. Half the trials (the odd
 * ones) store a run that waits for approval, then start worker processes
 * that resume it under a lease and run its tools; the other half run a group
 * chat kept in the store (`chaosChat.ts`: an agent whose tools need an
 * approval, one that answers, a person's turn; both models stream slowly),
 * started by the first worker and resumed by the next — every other one
 * nested in an outer chat (`chaosNestedChat`). Tools append to an
 * external ledger. Workers are killed with SIGKILL at random points (during
 * a model stream, during a tool, between a tool's effect and its journal
 * entry, during a checkpoint write, while waiting for an approval or on the
 * lease) and new ones started until the run or chat is finished. It prints
 * `trials N · lost runs L · tools executed twice D · in-doubt calls K (all surfaced)`.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { persistRunToStore } from '@agentchart/actors';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { build } from 'esbuild';
import { chaosAgent, readLedger } from './chaosAgent.js';

export interface ChaosSummary {
  trials: number;
  lostRuns: number;
  /** Effects in the ledger more than once (any tool). */
  executedTwice: number;
  /** Workers whose lease lapsed under load (fenced, then took the run again). */
  leaseLapses: number;
  /** Effects that never happened in a finished run. */
  missingEffects: number;
  inDoubt: number;
  unsurfaced: number;
  kills: number;
  /** Trials that ran a group chat (the others an agent run). */
  chats: number;
  /** Of those, the trials whose chat ran nested in another chat. */
  nestedChats: number;
  /** Where the kills of chat workers landed, by the chat's last checkpoint when the worker died. */
  chatKillsAt: Record<string, number>;
}

/** Where a chat was when its worker died, from its last checkpoint. */
function checkpointPlace(state: unknown): string {
  const waiting = (state as { waiting?: { kind?: string; run?: { machine?: { value?: string } }; snapshot?: unknown } } | undefined)?.waiting;
  if (waiting === undefined) return 'not started';
  if (waiting.kind === 'nested') return `nested: ${checkpointPlace(waiting.snapshot)}`;
  if (waiting.kind !== 'turn')
    return { selecting: 'between turns', approval: 'waiting for approval', human: 'waiting for a person' }[waiting.kind ?? ''] ?? waiting.kind ?? '?';
  const value = waiting.run?.machine?.value;
  return value === undefined || value === 'stepDone' ? 'in a model call' : 'in a tool batch';
}

const here = dirname(fileURLToPath(import.meta.url));
const LEASE_MS = 200;
const MAX_KILLS_PER_TRIAL = 3;

/** Bundles the worker to plain JavaScript once: a worker starts in a fraction of a second. */
async function bundleWorker(): Promise<string> {
  const outDir = join(here, '.out');
  mkdirSync(outDir, { recursive: true });
  const outfile = join(outDir, 'chaosWorker.mjs');
  await build({
    entryPoints: [join(here, 'chaosWorker.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'warning',
    external: ['@libsql/client', 'libsql', 'pg', 'pg-native'],
    banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
  });
  return outfile;
}

/** Runs `trials` trials, `concurrency` at a time (each its own run and workers); `log` gets one line per trial. */
export async function runChaos(trials: number, log: (line: string) => void = () => {}, concurrency = 4): Promise<ChaosSummary> {
  const worker = await bundleWorker();
  const dir = mkdtempSync(join(tmpdir(), 'agentchart-chaos-'));
  const db = join(dir, 'runs.db');
  const ledger = join(dir, 'ledger.txt');
  const store = await createSqliteRunStore({ path: db, busyTimeoutMs: 10_000 });
  const summary: ChaosSummary = {
    trials,
    lostRuns: 0,
    executedTwice: 0,
    missingEffects: 0,
    inDoubt: 0,
    unsurfaced: 0,
    kills: 0,
    leaseLapses: 0,
    chats: 0,
    nestedChats: 0,
    chatKillsAt: {},
  };
  try {
    let next = 1;
    let failed = false;
    const lane = async () => {
      for (let trial = next++; trial <= trials && !failed; trial = next++) {
        try {
          await runTrial(trial);
        } catch (error) {
          failed = true;
          throw error;
        }
      }
    };
    const runTrial = async (trial: number) => {
      const chat = trial % 2 === 0;
      // Every other chat runs nested in another chat (its tools journaled by the outer one).
      const nested = trial % 4 === 0;
      // A chat's tools key their effects by its turns' run ids: its ledger is its own file.
      const trialLedger = chat ? join(dir, `ledger-${trial}.txt`) : ledger;
      let runId: string;
      if (chat) {
        runId = `chat_${trial}_${Math.random().toString(36).slice(2)}`;
        summary.chats += 1;
        if (nested) summary.nestedChats += 1;
      } else {
        const run = chaosAgent(ledger).run('Pay Bob');
        await waitingFor(run);
        await persistRunToStore(run, { store, owner: 'driver' });
        run.abort();
        runId = run.runId;
      }
      let kills = 0;
      const trace: string[] = [];
      for (;;) {
        const child = spawn(process.execPath, [worker], {
          env: {
            ...process.env,
            CHAOS_DB: db,
            CHAOS_LEDGER: trialLedger,
            CHAOS_RUN_ID: runId,
            CHAOS_LEASE_MS: String(LEASE_MS),
            CHAOS_MODE: nested ? 'nested' : chat ? 'chat' : 'run',
          },
          stdio: ['ignore', 'pipe', 'inherit'],
          cwd: here,
        });
        const lines = collectLines(child);
        const kill = kills < MAX_KILLS_PER_TRIAL && Math.random() < 0.75;
        if (kill) {
          // From the moment it holds the run: a random point inside its work.
          await Promise.race([lines.waitFor('resumed'), lines.exited]);
          // A nested chat's worker first streams the lead's turn: its kills reach further in to land inside the nested one.
          await new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * (nested ? 200 : chat ? 80 : 30))));
          child.kill('SIGKILL');
          kills += 1;
          if (chat) {
            await lines.exited;
            const place = checkpointPlace((await store.loadRun(runId))?.state);
            summary.chatKillsAt[place] = (summary.chatKillsAt[place] ?? 0) + 1;
          }
        }
        const code = await lines.exited;
        trace.push(`-- worker (${kill ? 'killed' : 'ran'}, exit ${code})`, ...lines.all);
        summary.inDoubt += lines.all.filter((line) => line.startsWith('indoubt')).length;
        summary.unsurfaced += lines.all.filter((line) => line.endsWith('unsurfaced')).length;
        summary.leaseLapses += lines.all.filter((line) => line === 'leaselost').length;
        if (!kill && code !== 0) throw new Error(`chaos worker exited with ${code} in trial ${trial}`);
        if (lines.all.includes('done')) break;
      }
      summary.kills += kills;
      const stored = await store.loadRun(runId);
      if (stored?.status !== 'finished') summary.lostRuns += 1;
      const effects = chat ? readLedger(trialLedger) : readLedger(ledger).filter((line) => line.startsWith(`${runId}:`));
      const counts = new Map<string, number>();
      for (const line of effects) counts.set(line, (counts.get(line) ?? 0) + 1);
      summary.executedTwice += [...counts.values()].filter((count) => count > 1).length;
      if (process.env.CHAOS_TRACE && [...counts.values()].some((count) => count > 1)) log(trace.join('\n'));
      summary.missingEffects += 3 - counts.size;
      log(
        `trial ${trial} (${nested ? 'nested chat' : chat ? 'chat' : 'run'}): ${kills} kill(s), ${stored?.status ?? 'missing'}, effects ${[...counts.entries()].map(([line, count]) => `${line.split(' ')[1]}×${count}`).join(' ')}`,
      );
    };
    // Every lane ends before the files go: a failing lane must not pull the database from under the others.
    const lanes = await Promise.allSettled(Array.from({ length: Math.min(concurrency, trials) }, lane));
    const failure = lanes.find((outcome) => outcome.status === 'rejected');
    if (failure) throw (failure as PromiseRejectedResult).reason;
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return summary;
}

export function formatSummary(summary: ChaosSummary): string {
  return (
    `trials ${summary.trials} · lost runs ${summary.lostRuns} · tools executed twice ${summary.executedTwice} · ` +
    `in-doubt calls ${summary.inDoubt} (${summary.unsurfaced === 0 ? 'all surfaced' : `${summary.unsurfaced} not surfaced`}) · ` +
    `missing effects ${summary.missingEffects} · workers killed ${summary.kills} · leases lapsed ${summary.leaseLapses} · ` +
    `group chats ${summary.chats} of ${summary.trials} trials (${summary.nestedChats} nested)\n` +
    `chat workers killed: ${Object.entries(summary.chatKillsAt)
      .sort(([, a], [, b]) => b - a)
      .map(([place, count]) => `${count} ${place}`)
      .join(', ')}`
  );
}

function waitingFor(run: { pendingApprovals: readonly unknown[] }): Promise<void> {
  return new Promise((resolve) => {
    const check = () => (run.pendingApprovals.length > 0 ? resolve() : setTimeout(check, 2));
    check();
  });
}

function collectLines(child: ChildProcess) {
  const all: string[] = [];
  const waiters: { line: string; resolve: () => void }[] = [];
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    const parts = buffer.split('\n');
    buffer = parts.pop() ?? '';
    for (const line of parts) {
      all.push(line);
      for (const waiter of waiters.filter((each) => each.line === line)) waiter.resolve();
    }
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    all,
    exited,
    waitFor: (line: string) => (all.includes(line) ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ line, resolve }))),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const trials = Number(process.argv[2] ?? 200);
  let finished = 0;
  const progress = (line: string) => {
    finished += 1;
    if (process.env.CHAOS_VERBOSE) console.log(line);
    else if (finished % 25 === 0) console.log(`${finished}/${trials} trials…`);
  };
  const summary = await runChaos(trials, progress);
  console.log(formatSummary(summary));
  process.exitCode = summary.lostRuns === 0 && summary.executedTwice === 0 && summary.unsurfaced === 0 && summary.missingEffects === 0 ? 0 : 1;
}
