import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { agentScenarios } from './agentScenarios.js';
import { chatScenarios } from './chatScenarios.js';
import { type ScenarioGroup, makeVariant, normalize } from './corpusKit.js';
import { storedScenarios } from './storedScenarios.js';

/**
 * The recorded corpus: every scenario, under every variant of its group,
 * observes exactly what its fixture holds (events, results, persisted
 * snapshots, store calls). `RECORD_CORPUS=1 npx vitest run test/corpus`
 * writes the fixtures instead (`npx pnpm@12.4.2 corpus:record`): a deliberate
 * step, whose diff is reviewed like code.
 */
const RECORD = process.env.RECORD_CORPUS === '1';
const groups: Record<string, ScenarioGroup> = { agent: agentScenarios, chat: chatScenarios, stored: storedScenarios };

for (const [groupName, group] of Object.entries(groups)) {
  const file = new URL(`./fixtures/${groupName}.json`, import.meta.url);
  const recorded: Record<string, Record<string, unknown>> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const fresh: Record<string, Record<string, unknown>> = {};

  describe(`corpus: ${groupName}`, () => {
    if (RECORD)
      afterAll(() => {
        if (Object.keys(fresh).length === 0) return; // none of this group ran (a `-t` filter)
        mkdirSync(new URL('./fixtures/', import.meta.url), { recursive: true });
        const ordered = Object.fromEntries(Object.keys(group.scenarios).map((name) => [name, { ...recorded[name], ...fresh[name] }]));
        writeFileSync(file, `${JSON.stringify(ordered, null, 1)}\n`);
      });

    for (const [name, scenario] of Object.entries(group.scenarios))
      for (const variantName of group.variants)
        it(`${name} (${variantName})`, async () => {
          const variant = await makeVariant(variantName);
          let observed: unknown;
          try {
            // A scenario that throws records what it threw: that is behaviour too.
            const outcome = await scenario(variant).catch((error: unknown) => ({ threw: error }));
            await variant.settle();
            observed = normalize(variant.store === undefined ? outcome : { outcome, store: variant.storeCalls });
          } finally {
            await variant.close();
          }
          if (RECORD) {
            fresh[name] ??= {};
            (fresh[name] as Record<string, unknown>)[variantName] = observed;
            return;
          }
          expect(recorded[name], `no recording of "${name}": run RECORD_CORPUS=1 npx vitest run test/corpus`).toBeDefined();
          expect(observed).toEqual(recorded[name]?.[variantName]);
        });
  });
}
