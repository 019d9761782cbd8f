import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { HttpAgent } from '@ag-ui/client';
import { afterEach, describe, expect, it } from 'vitest';
import { describeEvent, runWithClient } from './agUiTestSupport.js';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'packages/examples/bin/agentchart.mjs');
const team = join(root, 'test/ag-ui/fixtures/teamModule.ts');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGTERM');
});

describe('agentchart ag-ui', () => {
  it('--help prints the usage and exits 0', () => {
    const help = spawnSync(process.execPath, [bin, 'ag-ui', '--help'], { cwd: root, encoding: 'utf8' });
    expect(help.status).toBe(0);
    expect(help.stdout).toContain('Usage: agentchart ag-ui serve --module <file> [--port N] [--host 127.0.0.1]');
  });

  it("serve --module answers a module's agents and chats on 127.0.0.1 to HttpAgent", { timeout: 60_000 }, async () => {
    const child = spawn(process.execPath, [bin, 'ag-ui', 'serve', '--module', team, '--port', '0'], { cwd: root });
    children.push(child);
    const serving = await new Promise<string>((resolve, reject) => {
      let text = '';
      child.stderr?.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        const line = text.match(/serving (.*) over AG-UI/);
        if (line) resolve(line[1] ?? '');
      });
      child.once('exit', (code) => reject(new Error(`the server exited (${code}): ${text}`)));
    });
    const urls = serving.split(', ');
    expect(urls).toEqual([expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/ag-ui\/greeter$/), expect.stringMatching(/\/ag-ui\/team$/)]);
    const client = new HttpAgent({ url: urls[0] ?? '', threadId: 'cli' });
    client.addMessage({ id: 'hi', role: 'user', content: 'Hi' });
    const events = await runWithClient(client, { runId: 'r1' });
    expect(events.map(describeEvent)).toEqual([
      'RUN_STARTED',
      'STATE_SNAPSHOT {}',
      'TEXT_MESSAGE_START assistant greeter',
      'TEXT_MESSAGE_CONTENT "Hello from greeter."',
      'TEXT_MESSAGE_END',
      'MESSAGES_SNAPSHOT 2',
      'RUN_FINISHED success',
    ]);
  });
});
