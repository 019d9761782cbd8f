import { ConfigurationError } from '@agentchart/core';

/**
 * A count of runs in progress with a ceiling: `take()` returns the release
 * function of a place, or `undefined` when all `max` are taken.
 *
 * @example
 * const limiter = runLimiter(2);
 * const release = limiter.take(); // a place
 * release?.();
 */
export function runLimiter(max: number): { readonly max: number; take(): (() => void) | undefined } {
  if (!(Number.isInteger(max) && max > 0))
    throw new ConfigurationError(`serveMcp: \`maxConcurrentRuns\` must be a positive whole number, not ${String(max)}.`);
  let running = 0;
  return {
    max,
    take() {
      if (running >= max) return undefined;
      running += 1;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        running -= 1;
      };
    },
  };
}
