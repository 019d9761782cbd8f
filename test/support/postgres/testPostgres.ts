import { execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from '../freePort.js';

/** A Postgres cluster the tests started (or one given by AGENTCHART_TEST_POSTGRES_URL). */
export interface TestPostgres {
  /** `postgres://agentchart@127.0.0.1:<port>/postgres` */
  url: string;
  /** Stops the cluster and removes its directory (nothing for a given URL). */
  stop(): Promise<void>;
}

/** The user a root process runs Postgres as (initdb refuses root). */
const POSTGRES_USER_CANDIDATES = ['postgres', 'agentchart-pg'];

/**
 * Starts a throwaway Postgres: `initdb` into a temporary directory (as an
 * unprivileged user when this process is root), `pg_ctl start` on a free
 * loopback port, trust authentication for the `agentchart` role. Throws with
 * what to do when it cannot: the store tests fail, they never skip.
 *
 * @example
 * let pg: TestPostgres;
 * beforeAll(async () => { pg = await startTestPostgres(); }, 60_000);
 * afterAll(() => pg.stop());
 */
export async function startTestPostgres(): Promise<TestPostgres> {
  const given = process.env.AGENTCHART_TEST_POSTGRES_URL;
  if (given !== undefined && given !== '') return { url: given, stop: async () => {} };

  const bin = postgresBinDir();
  const owner = process.getuid?.() === 0 ? unprivilegedUser() : undefined;
  const dir = mkdtempSync(join(tmpdir(), 'agentchart-pg-'));
  if (owner) chownSync(dir, owner.uid, owner.gid);
  const data = join(dir, 'data');
  const log = join(dir, 'postgres.log');
  const asOwner = owner ? { uid: owner.uid, gid: owner.gid } : {};
  const port = await freePort();
  try {
    await run(join(bin, 'initdb'), ['-D', data, '-U', 'agentchart', '--auth=trust', '-E', 'UTF8', '--no-sync', '--no-instructions'], asOwner);
    const serverOptions = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off`;
    await run(join(bin, 'pg_ctl'), ['-D', data, '-l', log, '-o', serverOptions, '-w', '-t', '60', 'start'], asOwner);
  } catch (error) {
    const serverLog = existsSync(log) ? readFileSync(log, 'utf8').slice(-2_000) : '(no server log)';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`Could not start the test Postgres: ${(error as Error).message}\nServer log:\n${serverLog}`, { cause: error });
  }
  return {
    url: `postgres://agentchart@127.0.0.1:${port}/postgres`,
    async stop() {
      await run(join(bin, 'pg_ctl'), ['-D', data, '-m', 'immediate', '-w', 'stop'], asOwner).catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The directory of `initdb` and `pg_ctl`: PATH first, then Debian's /usr/lib/postgresql/<newest>/bin. */
function postgresBinDir(): string {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    if (dir !== '' && existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((name) => /^\d+$/.test(name))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  for (const version of versions) {
    const dir = join(root, version, 'bin');
    if (existsSync(join(dir, 'initdb')) && existsSync(join(dir, 'pg_ctl'))) return dir;
  }
  throw new Error(
    'initdb and pg_ctl were not found (PATH, /usr/lib/postgresql/*/bin). Run `bash test/support/postgres/ensure-postgres.sh` ' +
      '(the test command does), install Postgres, or set AGENTCHART_TEST_POSTGRES_URL to a server to use.',
  );
}

/** An existing system user to run Postgres as, or a new system user created for it. */
function unprivilegedUser(): { uid: number; gid: number } {
  for (const name of POSTGRES_USER_CANDIDATES) {
    const ids = userIds(name);
    if (ids) return ids;
  }
  const name = POSTGRES_USER_CANDIDATES[POSTGRES_USER_CANDIDATES.length - 1]!;
  execFileSync('useradd', ['--system', '--no-create-home', '--shell', '/usr/sbin/nologin', name], { stdio: 'pipe' });
  const ids = userIds(name);
  if (!ids) throw new Error(`Created the system user "${name}" to run Postgres as, but cannot read its ids.`);
  return ids;
}

function userIds(name: string): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gid = Number(execFileSync('id', ['-g', name], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}

function run(command: string, args: string[], ids: { uid?: number; gid?: number }): Promise<void> {
  return new Promise((resolve, reject) => {
    // The child runs in a directory the unprivileged user can enter.
    const child = spawn(command, args, { ...ids, cwd: tmpdir(), stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolve();
      else reject(new Error(`${command} ${args.join(' ')} exited with ${code ?? signal}: ${output.trim().slice(-1_500)}`));
    });
  });
}
