import { describe, expect, it } from 'vitest';
import { agentScenarios } from './agentScenarios.js';
import { chatScenarios } from './chatScenarios.js';
import { type ScenarioGroup, type VariantName, makeVariant, normalize } from './corpusKit.js';
import { storedScenarios } from './storedScenarios.js';

/**
 * Watching changes nothing: every corpus scenario, run with and without an
 * XState inspector, gives the same events and results, and its root actors
 * go through the same (state value, context) snapshots; the snapshot read in
 * an `events$` listener is the state of that moment, the same in both, and so
 * are the actors that exist then, every one of them seen by the inspector.
 */
async function observe(scenario: ScenarioGroup['scenarios'][string], variantName: VariantName) {
  const variant = await makeVariant(variantName, { trace: true });
  try {
    const outcome = await scenario(variant).catch((error: unknown) => ({ threw: error }));
    await variant.settle();
    return normalize({ outcome, trace: variant.trace, ...(variant.store === undefined ? {} : { store: variant.storeCalls }) });
  } finally {
    await variant.close();
  }
}

/** The scenarios of `group` whose inspected run differs from their plain run (`[plain, inspected]` variant names). */
async function differences(group: ScenarioGroup, [plain, inspected]: readonly [VariantName, VariantName]) {
  const differing: string[] = [];
  for (const [name, scenario] of Object.entries(group.scenarios)) {
    const [watched, unwatched] = [await observe(scenario, inspected), await observe(scenario, plain)];
    const trace = (watched as { trace: { missing?: string; unseen: string[] }[] }).trace;
    const unseen = trace.flatMap((run) => run.unseen);
    if (trace.some((run) => run.missing !== undefined)) differing.push(`${name}: ${trace.find((run) => run.missing)?.missing}`);
    else if (unseen.length > 0) differing.push(`${name}: the inspector did not see ${unseen.join(', ')}`);
    else if (JSON.stringify(watched) !== JSON.stringify(unwatched)) differing.push(name);
  }
  return differing;
}

// The agent loop's fused steps and the chat's direct turns run beside the machines when nobody inspects, and a chat
// run has no root actor to follow: these fail until the machines are the only path (then `it.fails` becomes `it`).
describe('inspected and plain runs are the same', () => {
  it('agent runs: events, results and every snapshot of the run actor', { timeout: 120_000 }, async () => {
    expect(await differences(agentScenarios, ['plain', 'inspected'])).toEqual([]);
  });

  it('chats: events, results and every snapshot of the chat actor', { timeout: 120_000 }, async () => {
    expect(await differences(chatScenarios, ['plain', 'inspected'])).toEqual([]);
  });

  it('runs and chats in a store: events, results, snapshots and store writes', { timeout: 120_000 }, async () => {
    expect(await differences(storedScenarios, ['stored', 'storedInspected'])).toEqual([]);
  });
});
