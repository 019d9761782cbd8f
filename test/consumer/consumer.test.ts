import { execFile, spawn } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoTriesOfEveryScenario } from '../cli/checkModelTurns.js';
import { startOpenAIServer } from '../providers/wire/openaiWire.js';

/**
 * A user outside the workspace: the publishable packages are built, packed once,
 * and installed with plain npm (their dependencies from the registry) into a
 * temporary project; every check below runs against that one install.
 */
const root = join(dirname(fileURLToPath(import.meta.url)), '../..');
const project = join(root, 'test/consumer/project');
const bin = (name: string) => join(root, 'node_modules/.bin', name);
const MINUTES = 60_000;

/** The publishable packages: the references of tsconfig.build.json (the build's own list). */
const packageDirs = (JSON.parse(readFileSync(join(root, 'tsconfig.build.json'), 'utf8')) as { references: { path: string }[] }).references.map(
  (reference) => dirname(join(root, reference.path)),
);
const packageNames = packageDirs.map((dir) => (JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as { name: string }).name);

/** The environment without what a running pnpm script adds (npm_config_*, npm_package_*), so npm and npx behave as for a user. */
const userEnv = Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')));

async function run(command: string, args: string[], cwd: string, timeout = 5 * MINUTES, env: NodeJS.ProcessEnv = userEnv) {
  try {
    return await promisify(execFile)(command, args, { cwd, env, timeout, maxBuffer: 16 * 1024 * 1024 });
  } catch (error) {
    const failure = error as Error & { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(' ')} failed in ${cwd}:\n${failure.message}\n${failure.stdout ?? ''}\n${failure.stderr ?? ''}`);
  }
}

let work: string;
let tarballs: string[] = [];
const report: string[] = [];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'agentchart-consumer-'));
  const packs = join(work, 'packs');
  const app = join(work, 'app');
  // Incremental: the test command has just built from clean; run alone, this builds what is missing.
  await run(process.execPath, [join(root, 'scripts/build.mjs')], root);
  for (const dir of packageDirs) await run('npx', ['--yes', 'pnpm@12.4.2', 'pack', '--pack-destination', packs], dir);
  tarballs = readdirSync(packs).map((file) => join(packs, file));
  for (const tarball of tarballs) report.push(`${tarball.split('/').pop()}: ${(statSync(tarball).size / 1024).toFixed(1)} kB packed`);

  cpSync(project, app, { recursive: true });
  writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'agentchart-consumer', private: true, type: 'module' }, null, 2));
  // No @ai-sdk/provider: only the `@agentchart/providers/ai-sdk` subpath names its types (docs/packaging.md).
  await run('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs, 'zod@^4.6.7', '@types/node@^20.19.0'], app);
}, 15 * MINUTES);

afterAll(() => {
  console.log(`consumer test (${work}):\n${report.join('\n')}`);
  if (work) rmSync(work, { recursive: true, force: true });
}, 2 * MINUTES);

const app = () => join(work, 'app');

/** The environment whose `node` (and so `npx` and the `agentchart` bin) is Node `major`: the test's own for 20, else npx's node@major. */
async function nodeEnv(major: string): Promise<NodeJS.ProcessEnv> {
  const execPath =
    major === '20' ? process.execPath : (await run('npx', ['--yes', `node@${major}`, '-p', 'process.execPath'], work, 10 * MINUTES)).stdout.trim();
  return { ...userEnv, PATH: `${dirname(execPath)}:${userEnv.PATH ?? ''}` };
}

/** Runs the installed `agentchart` through npx, as a user types it; resolves with its exit code and output. */
function agentchart(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) =>
    execFile('npx', ['agentchart', ...args], { cwd: app(), env, timeout: 2 * MINUTES }, (error, stdout, stderr) =>
      resolve({ code: error ? Number((error as { code?: unknown }).code ?? 1) : 0, stdout, stderr }),
    ),
  );
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const EXPECTED_SCRIPT_OUTPUT = [
  'agent: terminal-tool; answer: Three hearts.; calls: answer (refused by init), search, answer',
  'chat: terminate-message; rounds: 2; last: critic',
  'openapi tools: getPet(petId)',
];

/** Starts `agentchart view` on a trace, fetches the page at the address it prints, and stops it. */
async function viewPage(trace: string, env: NodeJS.ProcessEnv): Promise<{ banner: string; page: string }> {
  // Its own process group, so stopping it stops npx and the command npx started.
  const child = spawn('npx', ['agentchart', 'view', trace, '--port', '0', '--now'], { cwd: app(), env, detached: true });
  try {
    const banner = await new Promise<string>((resolve, reject) => {
      let printed = '';
      child.stdout.on('data', (data: Buffer) => {
        printed += data.toString();
        const line = printed.split('\n').find((text) => /http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{24}\//.test(text));
        if (line) resolve(line);
      });
      child.once('exit', (code) => reject(new Error(`agentchart view exited with ${code}: ${printed}`)));
    });
    const url = /http:\/\/127\.0\.0\.1:\d+\/[A-Za-z0-9_-]{24}\//.exec(banner)?.[0] as string;
    return { banner: banner.replace(/:\d+\/[A-Za-z0-9_-]{24}\//, ':<port>/<token>/'), page: await (await fetch(url)).text() };
  } finally {
    if (child.pid !== undefined) process.kill(-child.pid, 'SIGTERM');
  }
}

describe('a consumer outside the workspace', () => {
  it('ships built JavaScript, declarations, maps, the licence and the README, and no TypeScript sources', async () => {
    expect(tarballs).toHaveLength(packageDirs.length);
    for (const tarball of tarballs) {
      const { stdout } = await run('tar', ['tzf', tarball], work);
      const files = stdout.trim().split('\n');
      expect(files).toContain('package/LICENSE');
      expect(files).toContain('package/README.md');
      expect(files).toContain('package/CHANGELOG.md');
      expect(files).toContain('package/dist/index.js');
      expect(files).toContain('package/dist/index.js.map');
      expect(files).toContain('package/dist/index.d.ts');
      expect(files).toContain('package/dist/index.d.ts.map');
      if (tarball.includes('agentchart-cli-')) expect(files).toContain('package/bin/agentchart.mjs');
      expect(files.filter((file) => file.endsWith('.ts') && !file.endsWith('.d.ts'))).toEqual([]);
      expect(files.filter((file) => file.includes('tsbuildinfo') || file.startsWith('package/src/'))).toEqual([]);
    }
  });

  it.each(['20', '22', '24'])(
    'runs an agent with tool rules and a group chat from a plain ESM script on Node %s',
    async (major) => {
      const node = major === '20' ? [process.execPath] : ['npx', '--yes', `node@${major}`];
      const { stdout } = await run(node[0]!, [...node.slice(1), 'agentAndChat.mjs'], app(), 10 * MINUTES);
      const lines = stdout.trim().split('\n');
      expect(lines.slice(0, -1)).toEqual(EXPECTED_SCRIPT_OUTPUT);
      expect(lines.at(-1)).toMatch(new RegExp(`^node ${major}\\.\\d+\\.\\d+$`));
      report.push(`Node ${major}:\n  ${lines.join('\n  ')}`);
    },
    10 * MINUTES,
  );

  it.each(['20', '22', '24'])(
    "runs the installed agentchart CLI from the project on Node %s: help, diagram, record of the user's own script, trace, view, check-model",
    async (major) => {
      const env = await nodeEnv(major);
      const lines: string[] = [`agentchart CLI on Node ${major}:`];
      const show = (command: string, output: string) =>
        lines.push(
          `$ npx agentchart ${command}`,
          ...output
            .trimEnd()
            .split('\n')
            .map((line) => `  ${line}`),
        );

      const help = await agentchart(['--help'], env);
      expect(help).toMatchObject({ code: 0, stderr: '' });
      expect(help.stdout).toContain('  agentchart record <script> [--out FILE]\n');
      show('--help', help.stdout.split('\n').slice(0, 4).join('\n'));

      const diagram = await agentchart(['diagram', 'agentAndChat.mjs', '--machine', 'toolRules'], env);
      expect(diagram).toMatchObject({ code: 0, stderr: '' });
      expect(diagram.stdout.split('\n').slice(0, 2)).toEqual(['stateDiagram-v2', '  [*] --> start']);
      expect(diagram.stdout).toContain('after_search --> done : answer');
      show('diagram agentAndChat.mjs --machine toolRules', diagram.stdout);

      const traceFile = `app-${major}.trace.ndjson`;
      const recorded = await agentchart(['record', 'agentAndChat.mjs', '--out', traceFile], env);
      expect(recorded.code).toBe(0);
      // What the script prints goes to stderr, so stdout stays free; the trace holds its agent run and its chat.
      expect(recorded.stdout).toBe('');
      expect(recorded.stderr).toContain(EXPECTED_SCRIPT_OUTPUT[0]);
      expect(recorded.stderr).toMatch(/trace of \d+ runs written to .*app-\d+\.trace\.ndjson/);
      const entries = readFileSync(join(app(), traceFile), 'utf8').trim().split('\n');
      expect(entries.length).toBeGreaterThan(20);
      show(`record agentAndChat.mjs --out ${traceFile}`, `${recorded.stderr.trimEnd().split('\n').at(-1)}\n(${entries.length} lines)`);

      const timeline = await agentchart(['trace', traceFile], env);
      expect(timeline).toMatchObject({ code: 0, stderr: '' });
      expect(timeline.stdout).toContain('⛔ researcher: answer refused (the first tool call must be one of: search)');
      expect(timeline.stdout).toContain('■ researcher finished: terminal-tool');
      expect(timeline.stdout).toMatch(/critic/);
      show(`trace ${traceFile}`, timeline.stdout.split('\n').slice(0, 8).join('\n'));

      const viewed = await viewPage(traceFile, env);
      expect(viewed.page).toContain('<script type="module" src="app.js"></script>');
      show(`view ${traceFile} --port 0 --now`, `${viewed.banner}\n(page served, ${viewed.page.length} bytes)`);

      const port = await freePort();
      const unreachable = await agentchart(['check-model', '--provider', 'ollama', '--model', 'qwen3:8b', '--host', `http://127.0.0.1:${port}`], env);
      expect(unreachable.code).toBe(1);
      expect(unreachable.stdout).toBe('');
      expect(unreachable.stderr).toBe(
        `agentchart check-model: stopped at the first connection failure: Cannot reach Ollama at http://127.0.0.1:${port} (connection refused). Start Ollama (\`ollama serve\`, or open the Ollama app), or point \`host\` / OLLAMA_HOST at the machine where it runs.\n`,
      );
      show(`check-model --provider ollama --model qwen3:8b --host http://127.0.0.1:${port}`, `${unreachable.stderr}(exit ${unreachable.code})`);

      const server = await startOpenAIServer({ profile: 'llama.cpp' });
      try {
        server.script(...twoTriesOfEveryScenario().filter((turn) => turn.parserError === undefined));
        const card = await agentchart(
          ['check-model', '--provider', 'openai', '--model', 'qwen3-8b', '--base-url', `${server.url}/v1`, '--tries', '2'],
          env,
        );
        expect(card).toMatchObject({ code: 0, stderr: '' });
        expect(card.stdout).toMatch(/overall\s+13\/14\s+93%/);
        show(
          'check-model --provider openai --model qwen3-8b --base-url <fake llama.cpp> --tries 2',
          card.stdout
            .split('\n')
            .filter((line) => /^(check-model|scenario|overall)/.test(line))
            .join('\n'),
        );
      } finally {
        await server.close();
      }
      report.push(lines.join('\n'));
    },
    10 * MINUTES,
  );

  it('loads from CommonJS with require() (require of ES modules, Node >= 20.19)', async () => {
    const { stdout } = await run(process.execPath, ['requireActors.cjs'], app());
    expect(stdout.trim()).toBe('cjs: completed; Hello from CommonJS.');
    report.push(`CommonJS on Node ${process.versions.node}: ${stdout.trim()}`);
  });

  it.each(['nodenext', 'bundler'])(
    "type-checks a user's file with strict, exactOptionalPropertyTypes and skipLibCheck false (moduleResolution %s)",
    async (resolution) => {
      const module = resolution === 'nodenext' ? 'nodenext' : 'esnext';
      writeFileSync(
        join(app(), `tsconfig.${resolution}.json`),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module,
            moduleResolution: resolution,
            strict: true,
            exactOptionalPropertyTypes: true,
            skipLibCheck: false,
            noEmit: true,
            types: ['node'],
          },
          files: ['userApp.ts'],
        }),
      );
      const tsc = join(root, 'node_modules/typescript/bin/tsc');
      const { stdout } = await promisify(execFile)(process.execPath, [tsc, '-p', `tsconfig.${resolution}.json`], { cwd: app() }).catch(
        (failure: { stdout: string }) => failure,
      );
      const errors = stdout.split('\n').filter((line) => / error TS\d+/.test(line));
      // xstate's own declarations do not compile under exactOptionalPropertyTypes
      // (statelyai/xstate#4613): every user of xstate with skipLibCheck false sees
      // those. Everything else — agentchart's declarations and the user's file — must.
      expect(errors.filter((line) => !line.startsWith('node_modules/xstate/'))).toEqual([]);
      report.push(`tsc (${resolution}): no errors in agentchart or the user's file; ${errors.length} in xstate's own declarations`);
    },
    5 * MINUTES,
  );

  it(
    'passes publint (strict) and arethetypeswrong (ESM-only profile) for every package',
    async () => {
      for (const tarball of tarballs) {
        const publint = await run(bin('publint'), ['run', '--strict', tarball], work);
        expect(publint.stdout).toContain('All good!');
        // ESM only: CommonJS users require() the ES modules (Node >= 20.19), which attw's
        // node16-from-CJS check (a dynamic import) predates; the esm-only profile leaves it out.
        // attw exits 1 on any problem it does not ignore (run() then throws).
        const attw = await run(bin('attw'), [tarball, '--profile', 'esm-only', '--format', 'ascii', '--no-color'], work);
        expect(attw.stdout).toContain('node16 (from ESM): 🟢 (ESM)');
        expect(attw.stdout).toContain('bundler: 🟢');
      }
      report.push(`publint and attw: no problems in ${packageNames.join(', ')}`);
    },
    5 * MINUTES,
  );
});
