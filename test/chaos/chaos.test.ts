import { expect, it } from 'vitest';
import { formatSummary, runChaos } from './runChaos.js';

it('20 crash trials: no run lost, no tool executed twice, every in-doubt call surfaced', async () => {
  const summary = await runChaos(20);
  console.log(formatSummary(summary));
  expect(summary).toMatchObject({ trials: 20, lostRuns: 0, executedTwice: 0, unsurfaced: 0, missingEffects: 0 });
  expect(summary.kills).toBeGreaterThan(0);
  expect(summary).toMatchObject({ chats: 10, nestedChats: 5 });
}, 240_000);
