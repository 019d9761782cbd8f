/**
 * Renders the pictures of docs/visualize.md: `pnpm docs:images`.
 * Every machine of every example is drawn as SVG (Graphviz in WebAssembly,
 * no browser); with chromium installed, the live view is photographed too.
 */
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { agentMachine } from '@agentchart/actors';
import { createTraceRecorder, graphToMermaid, machineGraph, renderGraphToSvg, startViewServer } from '@agentchart/inspect';
import { collectDiagrams } from '../cli/collectDiagrams.js';
import { exampleNames } from '../cli/exampleModules.js';
import { researchAgent } from '../research/researchAgent.js';

const IMAGES = new URL('../../../../docs/images/', import.meta.url);
await mkdir(IMAGES, { recursive: true });
const save = async (name: string, text: string) => {
  await writeFile(new URL(name, IMAGES), text);
  console.log(`docs/images/${name}`);
};

const agentGraph = machineGraph(agentMachine);
await save('agent-machine.svg', await renderGraphToSvg(agentGraph));
await save('agent-machine.mmd', graphToMermaid(agentGraph));

for (const example of exampleNames()) {
  for (const { key, graph } of await collectDiagrams(example)) {
    if (key === 'agent') continue; // the same agent machine in every example
    const name = `${example}.${key.replace(/[^\w.-]+/g, '-')}`;
    await save(`${name}.svg`, await renderGraphToSvg(graph));
    await save(`${name}.mmd`, graphToMermaid(graph));
  }
}

if (existsSync('/usr/bin/chromium')) {
  const { chromium } = await import('playwright-core');
  const view = await startViewServer({ port: 0 });
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(view.url);
  const recorder = createTraceRecorder({ sink: view.sink, title: 'research-rules' });
  const run = researchAgent({ latencyMs: 50 }).run('Which is the oldest lighthouse still in use?', { inspect: recorder.inspect });
  recorder.recordRun(run);
  await run.result;
  await page.waitForSelector('#transcript .run-end');
  await page.waitForSelector('[data-machine="toolRules"] g.current');
  await page.screenshot({ path: new URL('live-view.png', IMAGES).pathname, fullPage: true });
  console.log('docs/images/live-view.png');
  await browser.close();
  await view.close();
}
