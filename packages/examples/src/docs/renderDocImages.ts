/**
 * Renders the pictures of docs/visualize.md: `pnpm docs:images`.
 * Every machine of every example is drawn as SVG (Graphviz in WebAssembly,
 * no browser); with chromium installed, the live view is photographed too.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { createTraceRecorder, graphToMermaid, renderGraphToSvg, startViewServer } from '@agentchart/inspect';
import { scriptedModel } from '@agentchart/providers';
import { researchTeam, researchTeamScript } from '../groupChat/researchTeam.js';
import { researchAgent } from '../research/researchAgent.js';
import { docDiagrams } from './docDiagrams.js';

const IMAGES = new URL('../../../../docs/images/', import.meta.url);
await mkdir(IMAGES, { recursive: true });
const save = async (name: string, text: string) => {
  await writeFile(new URL(name, IMAGES), text);
  console.log(`docs/images/${name}`);
};

// test/examples/docImages.test.ts checks that the committed .mmd files are what this writes.
for (const { name, graph } of await docDiagrams()) {
  await save(`${name}.svg`, await renderGraphToSvg(graph));
  await save(`${name}.mmd`, graphToMermaid(graph));
}

if (existsSync('/usr/bin/chromium')) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const photograph = async (file: string, title: string, record: (recorder: ReturnType<typeof createTraceRecorder>) => Promise<unknown>) => {
    const view = await startViewServer({ port: 0 });
    await page.goto(view.url);
    await record(createTraceRecorder({ sink: view.sink, title }));
    await page.waitForFunction(() => document.querySelector('#connection')?.textContent === 'finished');
    await page.waitForSelector('.machine details[open] g.current');
    await page.waitForTimeout(300);
    await page.screenshot({ path: new URL(file, IMAGES).pathname, fullPage: true });
    console.log(`docs/images/${file}`);
    await view.close();
  };
  await photograph('live-view.png', 'research-rules', async (recorder) => {
    const run = researchAgent({ latencyMs: 50 }).run('Which is the oldest lighthouse still in use?', { inspect: recorder.inspect });
    recorder.recordRun(run);
    return run.result;
  });
  await photograph('live-view-team.png', 'group-chat', async (recorder) => {
    const chat = researchTeam({
      planner: scriptedModel(researchTeamScript.planner),
      researcher: scriptedModel(researchTeamScript.researcher),
      critic: scriptedModel(researchTeamScript.critic),
    });
    const run = chat.run('How many hearts does an octopus have?', { inspect: recorder.inspect });
    recorder.recordRun({ ...run, name: 'research team', machines: { speakers: chat.transitions } });
    return run.result;
  });
  await browser.close();
}
