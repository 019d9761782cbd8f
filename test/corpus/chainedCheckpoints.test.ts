import { applyStateDelta, type StateDelta } from '@agentchart/core';
import { describe, expect, it } from 'vitest';
import { agentScenarios } from './agentScenarios.js';
import { chatScenarios } from './chatScenarios.js';
import { type ScenarioGroup, type StoreCall, makeVariant, normalize } from './corpusKit.js';
import { storedScenarios } from './storedScenarios.js';

/**
 * Checkpoints written as deltas hold exactly what whole checkpoints hold:
 * every stored scenario of the corpus runs twice, once on a store that takes
 * deltas and once on one that writes every checkpoint whole; the two make the
 * same store calls in the same order, observe the same outcome, and each
 * checkpoint rebuilt from its chain (the whole one before it and the deltas
 * after) is the whole checkpoint the other run wrote at that point.
 */
const groups: Record<string, ScenarioGroup> = { agent: agentScenarios, chat: chatScenarios, stored: storedScenarios };

/** The store calls with every checkpoint as a whole one: a delta replaced by the checkpoint its chain rebuilds. */
function asWholeCheckpoints(calls: readonly StoreCall[]): unknown[] {
  const current = new Map<string, unknown>();
  return calls.map((call) => {
    if (call.method !== 'writeBatch' && call.method !== 'saveState') return call;
    const [lease, write] = call.args as [{ runId: string }, { state?: { status: string; state?: unknown; delta?: StateDelta } }];
    const state = call.method === 'saveState' ? (write as { status: string; state?: unknown; delta?: StateDelta }) : write.state;
    if (state === undefined) return call;
    const whole = state.delta === undefined ? structuredClone(state.state ?? null) : applyStateDelta(current.get(lease.runId), state.delta);
    current.set(lease.runId, whole);
    const checkpoint = { status: state.status, state: withoutSignature(structuredClone(whole)) };
    return { ...call, args: call.method === 'saveState' ? [lease, checkpoint] : [lease, { ...write, state: checkpoint }] };
  });
}

/** A signed checkpoint's own signature differs (a chain signs each delta instead): the rest must not. */
function withoutSignature(state: unknown): unknown {
  if (typeof state !== 'object' || state === null) return state;
  const { signature: _signature, ...rest } = state as Record<string, unknown>;
  return rest;
}

for (const [groupName, group] of Object.entries(groups)) {
  const storedVariants = group.variants.filter((variant) => variant === 'stored');
  describe(`checkpoint chains rebuild the whole checkpoints: ${groupName}`, () => {
    for (const [name, scenario] of Object.entries(group.scenarios))
      for (const variantName of storedVariants)
        it(name, async () => {
          const observe = async (wholeCheckpoints: boolean) => {
            const variant = await makeVariant(variantName, { wholeCheckpoints });
            try {
              const outcome = await scenario(variant).catch((error: unknown) => ({ threw: error }));
              await variant.settle();
              return normalize({ outcome, store: variant.storeCalls }) as { outcome: unknown; store: StoreCall[] };
            } finally {
              await variant.close();
            }
          };
          const whole = await observe(true);
          const chained = await observe(false);
          expect(chained.store.map((call) => call.method)).toEqual(whole.store.map((call) => call.method));
          expect(asWholeCheckpoints(chained.store)).toEqual(asWholeCheckpoints(whole.store));
          expect(chained.outcome).toEqual(whole.outcome);
          // A run that wrote more than one checkpoint in one process wrote deltas (its end, written whole with the lease given up, is not one).
          const checkpoints = (calls: StoreCall[]) =>
            calls.filter((call) => {
              const batch = call.args[1] as { state?: unknown; release?: boolean };
              return call.method === 'writeBatch' && batch.state !== undefined && batch.release !== true;
            });
          const deltas = checkpoints(chained.store).filter((call) => (call.args[1] as { state: { delta?: unknown } }).state.delta !== undefined);
          const firsts = new Set(checkpoints(whole.store).map((call) => `${call.process} ${(call.args[0] as { runId: string }).runId}`));
          expect(deltas.length).toBeGreaterThanOrEqual(checkpoints(whole.store).length - firsts.size - countLeaseTakes(whole.store));
        });
  });
}

/** Checkpoints written whole again because a process took a run's lease again (a resume starts a new chain). */
function countLeaseTakes(calls: readonly StoreCall[]): number {
  return calls.filter((call) => call.method === 'acquireLease').length;
}
