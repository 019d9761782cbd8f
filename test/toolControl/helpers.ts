import type { RunEvent, RunEventOf } from '@agentchart/core';
import type { AgentRun } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { z } from 'zod';

/** Collects a run's events as they come. */
export function recordEvents(run: AgentRun): RunEvent[] {
  const events: RunEvent[] = [];
  run.events$.subscribe((event) => events.push(event));
  return events;
}

/** The events of one type. */
export function eventsOf<T extends RunEvent['type']>(events: readonly RunEvent[], type: T): RunEventOf<T>[] {
  return events.filter((event): event is RunEventOf<T> => event.type === type);
}

/** A tool without parameters that returns `result` (or `name` + ' ran'). */
export function simpleTool(name: string, result: string = `${name} ran`) {
  return defineTool({ name, description: `The ${name} tool.`, parameters: z.object({}), execute: () => result });
}

/** Resolves once `predicate` holds for the run's actor snapshot. */
export function waitForState(run: AgentRun, state: string): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (run.actor.getSnapshot().matches(state as never)) {
        subscription.unsubscribe();
        resolve();
      }
    };
    const subscription = run.actor.subscribe(check);
    queueMicrotask(check);
  });
}
