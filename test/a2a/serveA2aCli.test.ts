import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { asTask, clientFor, data, partsOf, stateName, text, userMessage } from './a2aClients.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'packages/examples/bin/agentchart.mjs');
const team = join(root, 'test/a2a/fixtures/releaseTeamModule.ts');

const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/** Starts `agentchart a2a serve` and resolves with the URL it prints for each name. */
function serve(args: string[], env: Record<string, string> = {}): Promise<{ child: ChildProcess; urls: Record<string, string> }> {
  const child = spawn(process.execPath, [bin, 'a2a', 'serve', '--module', team, ...args], { cwd: root, env: { ...process.env, ...env } });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    child.stderr?.on('data', (chunk) => {
      err += String(chunk);
    });
    child.stdout?.on('data', (chunk) => {
      out += String(chunk);
      const urls = Object.fromEntries([...out.matchAll(/serving (\S+) at (\S+)\n/g)].map((match) => [match[1], match[2]]));
      if (Object.keys(urls).length === 2) resolve({ child, urls });
    });
    child.once('exit', (code) => reject(new Error(`agentchart a2a serve exited with ${code}: ${err}`)));
  });
}

describe('agentchart a2a serve', () => {
  it('prints its usage and exits 0 with --help', { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [bin, 'a2a', '--help'], { cwd: root });
    let out = '';
    child.stdout.on('data', (chunk) => {
      out += String(chunk);
    });
    const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
    expect(code).toBe(0);
    expect(out).toMatch(/^Usage: agentchart a2a serve --module <file> \[--port N\] \[--host 127\.0\.0\.1\]/);
  });

  it("serves the module's agents and chats on 127.0.0.1 at /a2a/<name>/", { timeout: 60_000 }, async () => {
    const { urls } = await serve(['--port', '0']);
    expect(urls.greeter).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/a2a\/greeter\/$/);
    const client = await clientFor(urls.greeter!);
    const task = asTask(await client.sendMessage(userMessage([text('Hi.')])));
    expect(partsOf(task.artifacts[0]?.parts)).toEqual(['Hello, Ada!']);
  });

  it('keeps a task in the store across a restart: a new server on the same SQLite file continues it, the approved call runs once', {
    timeout: 90_000,
  }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'a2a-restart-'));
    const logFile = join(dir, 'tools.log');
    const store = join(dir, 'tasks.db');
    try {
      const first = await serve(['--store', store, '--owner', 'a2a-test'], { A2A_TOOL_LOG: logFile });
      const before = await clientFor(first.urls.release_team!);
      const waiting = asTask(await before.sendMessage(userMessage([text('Ship v2.')])));
      expect(stateName(waiting.status?.state)).toBe('TASK_STATE_INPUT_REQUIRED');
      first.child.kill('SIGKILL');
      await new Promise((resolve) => first.child.once('exit', resolve));
      expect(readFileSync(logFile, 'utf8')).toBe('run_checks\n');

      const second = await serve(['--store', store, '--owner', 'a2a-test'], { A2A_TOOL_LOG: logFile });
      expect(second.urls.release_team).not.toBe(first.urls.release_team);
      const after = await clientFor(second.urls.release_team!);
      const read = await after.getTask({ tenant: '', id: waiting.id });
      expect(stateName(read.status?.state)).toBe('TASK_STATE_INPUT_REQUIRED');
      expect(partsOf(read.status?.message?.parts)[1]).toEqual({
        pending: [{ callId: 'deploy-1', toolName: 'deploy', arguments: { version: 'v2' } }],
      });
      const done = asTask(
        await after.sendMessage(userMessage([data({ approve: 'deploy-1' })], { taskId: waiting.id, contextId: waiting.contextId })),
      );
      expect(stateName(done.status?.state)).toBe('TASK_STATE_COMPLETED');
      expect(partsOf(done.artifacts[0]?.parts)).toEqual(['Reviewed: v2 release is done.']);
      expect(readFileSync(logFile, 'utf8')).toBe('run_checks\ndeploy v2\n');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
