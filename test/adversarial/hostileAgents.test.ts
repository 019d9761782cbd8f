import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hostileScenario } from './hostileArbitraries.js';
import { brokenInvariant } from './hostileInvariants.js';
import { runHostileScenario } from './runHostileScenario.js';

/**
 * Hostile runs per suite run (ADVERSARIAL_RUNS overrides). A failure prints
 * fast-check's seed and path: replay it with ADVERSARIAL_SEED=<seed>.
 */
const RUNS = Number(process.env.ADVERSARIAL_RUNS ?? 3000);
const SEED = process.env.ADVERSARIAL_SEED === undefined ? undefined : Number(process.env.ADVERSARIAL_SEED);
/** The time box: on a machine too slow for RUNS, the suite stops here and reports how many runs it did. */
const TIME_BOX_MS = 150_000;

describe('adversarial suite: hostile models against agents with random rules, approvals and limits', () => {
  it(
    `keeps every invariant over up to ${RUNS} hostile runs`,
    async () => {
      const started = performance.now();
      let runs = 0;
      let rejected = 0;
      await fc.assert(
        fc.asyncProperty(hostileScenario, async (scenario) => {
          runs++;
          const record = await runHostileScenario(scenario);
          if (record.rejectedRules) rejected++;
          const broken = brokenInvariant(scenario, record);
          if (broken !== undefined) throw new Error(broken);
        }),
        { numRuns: RUNS, interruptAfterTimeLimit: TIME_BOX_MS, ...(SEED !== undefined ? { seed: SEED } : {}), verbose: 0 },
      );
      const seconds = (performance.now() - started) / 1000;
      const box = runs < RUNS ? ` (time box of ${TIME_BOX_MS / 1000} s reached)` : '';
      console.log(`adversarial agents: ${runs} runs (${rejected} rule sets rejected at creation) in ${seconds.toFixed(1)} s${box}`);
      expect(runs).toBeGreaterThan(0);
      expect(rejected).toBeLessThan(runs);
    },
    TIME_BOX_MS + 60_000,
  );
});
