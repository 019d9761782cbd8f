import { observeAllRuns } from '@agentchart/actors';
import type { ErrorInfo } from '@agentchart/core';

/**
 * Collects the model failures (`MODEL_*` errors: the server could not be
 * reached, the model is missing, ...) of every run started from now on, so a
 * command that runs an example can exit non-zero when its model failed,
 * though the example itself printed the run's end and returned.
 *
 * @example
 * const failures = watchModelFailures();
 * await import(exampleUrl);
 * if (failures.list().length > 0) process.exitCode = 1;
 */
export function watchModelFailures(): { list(): readonly ErrorInfo[]; stop(): void } {
  const failures: ErrorInfo[] = [];
  const stop = observeAllRuns({
    onRun: (run) => {
      run.events$.subscribe((event) => {
        if (event.type === 'run.finished' && event.error?.code?.startsWith('MODEL_')) failures.push(event.error);
      });
    },
  });
  return { list: () => failures, stop };
}

/** The message for model failures, with what to do. */
export function describeModelFailures(what: string, failures: readonly ErrorInfo[]): string {
  const reasons = [...new Set(failures.map((failure) => `${failure.code}: ${failure.message}`))];
  return `${what}: the model failed (${reasons.join('; ')}). Start the model server or unset the variable that names the model to use the scripted one.`;
}
