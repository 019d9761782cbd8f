import type { InspectionEvent, Observer } from 'xstate';

/**
 * What the `inspect` option takes: an XState inspection observer or a
 * function. It is handed to the root actor, so it sees every actor of the
 * system (the agent machine, its model calls, its tool batches, …).
 *
 * @example
 * agent.run('Hi', { inspect: (event) => console.log(event.type) });
 */
export type InspectOption = Observer<InspectionEvent> | ((event: InspectionEvent) => void);

/**
 * Joins `inspect` options into one (undefined ones are skipped); an observer
 * that throws, even the only one, does not stop the others or the run.
 *
 * @example
 * createActor(machine, { inspect: combineInspectors(agentOptions.inspect, runOptions.inspect) });
 */
export function combineInspectors(...inspectors: (InspectOption | undefined)[]): InspectOption | undefined {
  const present = inspectors.filter((inspector): inspector is InspectOption => inspector !== undefined);
  if (present.length === 0) return undefined;
  return (event: InspectionEvent) => {
    for (const inspector of present) {
      try {
        if (typeof inspector === 'function') inspector(event);
        else inspector.next?.(event);
      } catch {
        // An inspector is an observer: its failure must not change the run.
      }
    }
  };
}
