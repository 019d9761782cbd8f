import { type ToolContext, defineTool } from '@agentchart/core';
import { z } from 'zod';

/** How a test tool is declared: needs approval, or is safe to run again. */
export interface JournaledToolOptions {
  approval?: 'always';
  idempotent?: true;
}

/**
 * A test tool `name({ to })` whose effect (`effect`, e.g. appending to a
 * ledger) is what the durability tests count; it answers `<name> <to> done`.
 *
 * @example
 * const pay = journaledTool('pay', { approval: 'always' }, (to, ctx) => ledger.push(`pay ${to} key=${ctx.idempotencyKey}`));
 */
export function journaledTool(name: string, options: JournaledToolOptions, effect: (to: string, ctx: ToolContext) => unknown) {
  return defineTool({
    name,
    description: `The ${name} tool.`,
    parameters: z.object({ to: z.string() }),
    ...options,
    execute: async ({ to }, ctx) => {
      await effect(to, ctx);
      return `${name} ${to} done`;
    },
  });
}
