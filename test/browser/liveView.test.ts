import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { inflateSync } from 'node:zlib';
import { createAgent, createGroupChat } from '@agentchart/actors';
import { createTraceRecorder, startViewServer } from '@agentchart/inspect';
import { researchAgent, researchTeam, researchTeamScript } from '@agentchart/examples';
import { scriptedModel } from '@agentchart/providers';
import { chromium } from 'playwright-core';
import { describe, expect, it } from 'vitest';

const CHROMIUM = '/usr/bin/chromium';
const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-quic',
  '--disable-sync',
];
// CI installs chromium first (test/browser/ensure-chromium.sh); there a missing browser is a failure, not a skip.
const available = existsSync(CHROMIUM) || process.env.CI === 'true';

/** Width, height and the number of distinct byte values of a PNG's pixels: a blank picture has very few. */
function pngFacts(png: Buffer): { width: number; height: number; distinctBytes: number } {
  expect(png.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
  const idat: Buffer[] = [];
  for (let offset = 8; offset < png.length; ) {
    const length = png.readUInt32BE(offset);
    const type = png.toString('ascii', offset + 4, offset + 8);
    if (type === 'IDAT') idat.push(png.subarray(offset + 8, offset + 8 + length));
    offset += 12 + length;
  }
  const pixels = inflateSync(Buffer.concat(idat));
  return { width: png.readUInt32BE(16), height: png.readUInt32BE(20), distinctBytes: new Set(pixels).size };
}

/** Chromium as the test drives it: Debian's build, headless, no sandbox, no network of its own, a fresh profile. */
async function openBrowser() {
  const userDataDir = mkdtempSync(join(tmpdir(), 'agentchart-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 960 },
  });
  const page = context.pages()[0] ?? (await context.newPage());
  return {
    page,
    userDataDir,
    close: async () => {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

describe.runIf(available)('live view in headless Chromium', () => {
  it('shows the transcript, the refusal and each machine with its current state, live', { timeout: 60_000 }, async () => {
    const view = await startViewServer({ port: 0 });
    const { page, userDataDir, close } = await openBrowser();
    try {
      const requested: string[] = [];
      const consoleErrors: string[] = [];
      const failedResponses: string[] = [];
      page.on('request', (request) => requested.push(request.url()));
      page.on('console', (message) => message.type() === 'error' && consoleErrors.push(message.text()));
      page.on('response', (response) => response.status() >= 400 && failedResponses.push(`${response.status()} ${response.url()}`));
      await page.goto(view.url);
      await page.waitForSelector('#connection');

      const recorder = createTraceRecorder({ sink: view.sink, title: 'research' });
      const run = researchAgent({ latencyMs: 250 }).run('Which is the oldest lighthouse still in use?', { inspect: recorder.inspect });
      recorder.recordRun(run);

      // Live: the refusal is on the page while the run is still going.
      await page.waitForSelector('#transcript .refusal', { timeout: 20_000 });
      expect(await page.locator('#transcript .run-end').count()).toBe(0);
      expect(await page.textContent('#connection')).toBe('live');
      await run.result;
      await page.waitForSelector('#transcript .run-end', { timeout: 20_000 });
      await page.waitForSelector('[data-machine="toolRules"] g.current');

      // The page loads without a console error: its icon is served too, no request answers 4xx.
      expect([consoleErrors, failedResponses]).toEqual([[], []]);
      expect(requested).toContain(`${view.url}favicon.svg`);
      expect(await page.textContent('#title')).toBe('research');
      expect(await page.textContent('#speaker')).toBe('researcher');
      expect(await page.textContent('#connection')).toBe('finished');
      expect(await page.locator('#transcript .msg.user').allTextContents()).toEqual(['userWhich is the oldest lighthouse still in use?']);
      expect(await page.locator('#transcript .msg.assistant').allTextContents()).toEqual([
        'researcherI know this one.',
        'researcherLet me search first.',
        'researcherThe Tower of Hercules is the oldest lighthouse still in use.',
      ]);
      expect(await page.locator('#transcript .refusal').allTextContents()).toEqual([
        'researcher⊘ answer refused (init): the first tool call must be one of: search\nallowed now: search',
      ]);
      const calls = await page.locator('#transcript .tool-call').allTextContents();
      expect(calls.map((text) => /⚙ (\w+)\(/.exec(text)?.[1])).toEqual(['search', 'read', 'answer']);
      expect(await page.locator('#transcript .tool-result.ok').count()).toBe(3);

      const rules = page.locator('.owner[data-owner="researcher"] [data-machine="toolRules"]');
      expect(await rules.locator('svg g[id="state:toolRules.after:search"]').count()).toBe(1);
      expect(await rules.locator('g.current').evaluateAll((nodes) => nodes.map((node) => node.id))).toEqual(['state:toolRules.done']);
      expect(await rules.locator('.state strong').textContent()).toBe('done');
      const agent = page.locator('.owner[data-owner="researcher"] [data-machine="agent"]');
      expect(await agent.locator('g.current').evaluateAll((nodes) => nodes.map((node) => node.id))).toEqual(['state:agent.ended']);

      const shot = join(userDataDir, 'live-view.png');
      await page.screenshot({ path: shot, fullPage: true });
      const facts = pngFacts(readFileSync(shot));
      expect(facts.width).toBe(1280);
      expect(facts.height).toBeGreaterThanOrEqual(960);
      expect(facts.distinctBytes).toBeGreaterThan(100);

      // Nothing came from anywhere but the view's own server.
      expect(requested.length).toBeGreaterThan(0);
      expect(requested.filter((url) => !url.startsWith(view.url))).toEqual([]);
    } finally {
      await close();
      await view.close();
    }
  });

  it('follows a group chat: who speaks, handoffs, and the speaker-transition machine', { timeout: 60_000 }, async () => {
    const view = await startViewServer({ port: 0 });
    const { page, close } = await openBrowser();
    try {
      await page.goto(view.url);
      const chat = researchTeam({
        planner: scriptedModel(researchTeamScript.planner, { latencyMs: 20 }),
        researcher: scriptedModel(researchTeamScript.researcher, { latencyMs: 20 }),
        critic: scriptedModel(researchTeamScript.critic, { latencyMs: 20 }),
      });
      const recorder = createTraceRecorder({ sink: view.sink, title: 'team' });
      const run = chat.run('How many hearts does an octopus have?', { inspect: recorder.inspect });
      recorder.recordRun({ ...run, name: 'team', machines: { speakers: chat.transitions } });
      await run.result;
      await page.waitForFunction(() => document.querySelector('#connection')?.textContent === 'finished', undefined, { timeout: 20_000 });
      await page.waitForSelector('[data-machine="speakers"] g.current');

      const changes = await page.locator('#transcript .speaker-change').allTextContents();
      expect(changes).toContain('↪ researcher hands off to critic (tool)');
      expect(changes.filter((text) => text.startsWith('» next speaker:')).map((text) => text.split(' ')[3])).toEqual([
        'planner',
        'researcher',
        'critic',
      ]);
      expect(await page.textContent('#speaker')).toBe('critic');
      const speakers = page.locator('.owner[data-owner="team"] [data-machine="speakers"]');
      expect(await speakers.locator('g.current').evaluateAll((nodes) => nodes.map((node) => node.id))).toEqual(['state:speakers.critic']);
      // Each agent has its own box; the researcher's holds its rule machine.
      expect(await page.locator('.owner').evaluateAll((groups) => groups.map((group) => (group as HTMLElement).dataset.owner))).toEqual(
        expect.arrayContaining(['team', 'planner', 'researcher', 'critic']),
      );
      expect(await page.locator('.owner[data-owner="researcher"] [data-machine="toolRules"] svg').count()).toBe(1);
    } finally {
      await close();
      await view.close();
    }
  });

  it("names the speaker an 'auto' selection falls back to once, with the reason on its own line", { timeout: 60_000 }, async () => {
    const view = await startViewServer({ port: 0 });
    const { page, close } = await openBrowser();
    try {
      await page.goto(view.url);
      const agent = (name: string) => createAgent({ name, model: scriptedModel(() => ({ text: `${name} here` })) });
      const chat = createGroupChat({
        agents: [agent('a'), agent('b'), agent('c')],
        speakerSelection: { method: 'auto', model: scriptedModel(() => ({ text: 'a' })), maxRetries: 0 },
        transitions: { allowed: { a: ['b', 'c'], b: ['a'], c: ['a'] } },
        maxRounds: 2,
      });
      const recorder = createTraceRecorder({ sink: view.sink, title: 'fallback' });
      const run = chat.run('task', { inspect: recorder.inspect });
      recorder.recordRun({ ...run, name: 'fallback' });
      await run.result;
      await page.waitForFunction(() => document.querySelector('#connection')?.textContent === 'finished', undefined, { timeout: 20_000 });

      expect(await page.locator('#transcript .speaker-change').allTextContents()).toEqual([
        '» next speaker: a (round 1, by auto)',
        '✗ selector answered "a": not one of b, c',
        '⚠ speaker selection fell back (ineligible-answers)',
        '» next speaker: b (round 2, by fallback)',
      ]);
      expect(await page.textContent('#speaker')).toBe('b');
    } finally {
      await close();
      await view.close();
    }
  });
});
