import { type RunLease, RunLeaseLostError, type RunStore } from '@agentchart/core';

/** Keeps a lease alive while a run goes on; reports when it is lost. */
export interface LeaseKeeper {
  readonly current: () => RunLease;
  stop(): void;
}

/**
 * Renews `lease` every third of its duration. When a renewal is refused
 * (another owner took the run, or this process was paused past the expiry)
 * it stops and calls `onLost` once; the fenced store refuses every later
 * write of this lease anyway.
 *
 * @example
 * const keeper = keepLease(store, lease, 30_000, () => run.abort());
 */
export function keepLease(store: RunStore, lease: RunLease, leaseMs: number, onLost: (error: unknown) => void): LeaseKeeper {
  let current = lease;
  let stopped = false;
  const timer = setInterval(
    () => {
      store.renewLease(current, leaseMs).then(
        (renewed) => {
          if (!stopped) current = renewed;
        },
        (error: unknown) => {
          if (stopped) return;
          if (error instanceof RunLeaseLostError) {
            stopped = true;
            clearInterval(timer);
            onLost(error);
          } // another error (a network blip): the next renewal tries again
        },
      );
    },
    Math.max(10, Math.floor(leaseMs / 3)),
  );
  timer.unref?.();
  return {
    current: () => current,
    stop() {
      stopped = true;
      clearInterval(timer);
    },
  };
}
