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

/** A tool that always needs approval; records `delete <path>` in `executed` when it runs. */
export function deleteFile(executed: string[]) {
  return defineTool({
    name: 'delete_file',
    description: 'Deletes a file.',
    parameters: z.object({ path: z.string() }),
    approval: 'always',
    execute: ({ path }) => {
      executed.push(`delete ${path}`);
      return `deleted ${path}`;
    },
  });
}

/** A tool with no approval of its own (a `requiresApproval` rule may hold it); records `drop <table>`. */
export function dropTable(executed: string[]) {
  return defineTool({
    name: 'drop_table',
    description: 'Drops a table.',
    parameters: z.object({ table: z.string() }),
    execute: ({ table }) => {
      executed.push(`drop ${table}`);
      return `dropped ${table}`;
    },
  });
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
