import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { parseTrace } from '@agentchart/inspect';
import { afterAll, describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'packages/examples/bin/agentchart.mjs');
const fixture = (path: string) => join(root, 'test/fixtures', path);
const exec = (...args: string[]) => promisify(execFile)('node', [bin, ...args], { cwd: root });
const run = async (...args: string[]) => (await exec(...args)).stdout;
const scratch = mkdtempSync(join(tmpdir(), 'agentchart-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const RESEARCH_RULES_MERMAID = [
  'stateDiagram-v2',
  '  [*] --> start',
  '  state "after search" as after_search',
  '  state "after read" as after_read',
  '  done --> [*]',
  '  start --> after_search : search',
  '  after_search --> after_read : read',
  '  after_search --> done : answer',
  '  after_read --> after_search : search',
  '  after_read --> after_read : read',
  '  after_read --> done : answer',
  '  after_read --> done : final answer',
  '',
].join('\n');

describe('agentchart CLI', () => {
  it("draws an example agent's rule machine as Mermaid, and the same rules from Letta JSON as SVG", async () => {
    // The example runs to show its machines; what it prints is not part of the diagram, on any stream.
    expect(await exec('diagram', 'research-rules', '--machine', 'toolRules')).toEqual({ stdout: RESEARCH_RULES_MERMAID, stderr: '' });
    const svg = await run('diagram', fixture('rules/research.letta.json'), '--format', 'svg');
    expect(svg.startsWith('<svg')).toBe(true);
    for (const state of ['start', 'after:search', 'after:read', 'done']) expect(svg).toContain(`id="state:toolRules.${state}"`);
  });

  it("draws the example team's speaker transitions", async () => {
    expect(await run('diagram', 'group-chat', '--machine', 'speakers')).toBe(
      [
        'stateDiagram-v2',
        '  [*] --> _start_',
        '  state "(start)" as _start_',
        '  _start_ --> planner : planner',
        '  planner --> researcher : researcher',
        '  researcher --> critic : critic',
        '  critic --> researcher : researcher',
        '  critic --> planner : planner',
        '',
      ].join('\n'),
    );
  });

  it('writes machine graphs as JSON', async () => {
    const graph = JSON.parse(await run('diagram', fixture('traces/v1-lookup.ndjson'), '--format', 'json')) as { id: string; nodes: unknown[] };
    expect(graph.id).toBe('agent');
    expect(graph.nodes.length).toBeGreaterThan(5);
  });

  it('prints a trace as a timeline, and records an example into a trace that reads back', async () => {
    expect(await run('trace', fixture('traces/v1-lookup.ndjson'))).toBe(readFileSync(fixture('traces/v1-lookup.timeline.txt'), 'utf8'));
    const out = join(scratch, 'research.trace.ndjson');
    await run('record', 'research-rules', '--out', out);
    const trace = parseTrace(readFileSync(out, 'utf8'));
    expect(trace.header.title).toBe('research-rules');
    const timeline = await run('trace', out);
    expect(timeline).toContain('⛔ researcher: answer refused (the first tool call must be one of: search)');
    expect(timeline).toContain('⚙ toolRules: after:read → done');
    expect(timeline).toContain('■ researcher finished: terminal-tool');
  });

  it("records a user's script whose runs use its own copy of @agentchart/actors, not the CLI's", async () => {
    // A project inside the workspace (so its other imports resolve) with a second copy of actors in its node_modules.
    const project = join(root, 'node_modules/.cache/agentchart-cli-own-copy');
    rmSync(project, { recursive: true, force: true });
    const copy = join(project, 'node_modules/@agentchart/actors');
    mkdirSync(copy, { recursive: true });
    cpSync(join(root, 'packages/actors/src'), join(copy, 'src'), { recursive: true });
    cpSync(join(root, 'packages/actors/package.json'), join(copy, 'package.json'));
    writeFileSync(
      join(project, 'app.mjs'),
      [
        "import { createAgent } from '@agentchart/actors';",
        "import { scriptedModel } from '@agentchart/providers';",
        "console.log('own copy:', import.meta.resolve('@agentchart/actors').includes('agentchart-cli-own-copy'));",
        "const result = await createAgent({ name: 'mine', model: scriptedModel([{ text: 'From my copy.' }]) }).run('Hi').result;",
        'console.log(result.text);',
      ].join('\n'),
    );
    try {
      const out = join(scratch, 'own-copy.trace.ndjson');
      const { stdout, stderr } = await exec('record', join(project, 'app.mjs'), '--out', out);
      expect(stdout).toBe('');
      expect(stderr.split('\n').slice(0, 3)).toEqual([
        'own copy: true',
        'From my copy.',
        `trace of 1 run written to ${out}: read it with \`agentchart trace\`, watch it with \`agentchart view\``,
      ]);
      const timeline = await run('trace', out);
      expect(timeline).toContain('mine finished: completed');
    } finally {
      rmSync(project, { recursive: true, force: true });
    }
  });

  it('serves a trace in the live view on 127.0.0.1', async () => {
    const child = spawn('node', [bin, 'view', fixture('traces/v1-lookup.ndjson'), '--port', '0', '--speed', '0'], { cwd: root });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        child.stdout.on('data', (data: Buffer) => {
          const found = /http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{24}\//.exec(data.toString());
          if (found) resolve(found[0]);
        });
        child.once('exit', (code) => reject(new Error(`agentchart view exited with ${code}`)));
      });
      const page = await (await fetch(url)).text();
      expect(page).toContain('<script type="module" src="app.js"></script>');
      // Without the per-launch token in the path, nothing is served.
      const { origin } = new URL(url);
      expect((await fetch(`${origin}/trace.ndjson`)).status).toBe(403);
      // The replay waits for a page to open the live stream.
      expect(await (await fetch(`${url}trace.ndjson`)).text()).toBe('');
      const stream = new AbortController();
      await fetch(`${url}events`, { signal: stream.signal });
      const recorded = readFileSync(fixture('traces/v1-lookup.ndjson'), 'utf8');
      let served = '';
      for (let waited = 0; served !== recorded && waited < 5000; waited += 50) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        served = await (await fetch(`${url}trace.ndjson`)).text();
      }
      stream.abort();
      expect(served).toBe(recorded);
      const svg = await fetch(`${url}machines/agent.svg`);
      expect(svg.headers.get('content-type')).toBe('image/svg+xml');
      expect(await svg.text()).toContain('id="state:agent.thinking"');
    } finally {
      child.kill('SIGTERM');
    }
  });
});
