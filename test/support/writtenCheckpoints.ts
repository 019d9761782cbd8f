import { applyStateDelta, type RunStore, type StateDeltaWrite, type StateWrite } from '@agentchart/core';

/**
 * The checkpoints a run's writes hold, as the store keeps them: a whole
 * checkpoint as written, a delta applied to the one before it. For tests
 * that watch `writeBatch` and read what each checkpoint says.
 *
 * @example
 * const written = writtenCheckpoints();
 * store.writeBatch = (lease, batch) => { if (batch.state) seen.push(written(batch.state)); return writeBatch(lease, batch); };
 */
export function writtenCheckpoints(): (write: StateWrite | StateDeltaWrite) => unknown {
  let current: unknown;
  return (write) => {
    current = 'delta' in write ? applyStateDelta(current, asJson(write.delta)) : asJson(write.state);
    return structuredClone(current);
  };
}

function asJson<T>(value: T): T {
  return JSON.parse(JSON.stringify(value ?? null)) as T;
}

/**
 * `store` as a store that takes no deltas: every checkpoint is written whole
 * (as a store of an earlier release, or one written by hand, keeps them).
 *
 * @example
 * const run = agent.run('pay Bob', { store: wholeCheckpoints(store), runId });
 */
export function wholeCheckpoints(store: RunStore): RunStore {
  return new Proxy(store, {
    get: (target, property) => {
      if (property === 'stateDeltas') return false;
      const value = Reflect.get(target, property, target) as unknown;
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
    },
  });
}
