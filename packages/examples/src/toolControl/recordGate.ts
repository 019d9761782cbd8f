/**
 * The gate pattern and the read-before-write middleware. Only the read tool
 * is registered; reading a record unlocks the write tool for the rest of the
 * run, and a middleware rejects a write that targets another record than the
 * one read last. The last read id lives in the run's shared state, so every
 * run starts locked again.
 */
import { type ChatModel, type FunctionMiddleware, defineTool } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import type { ScriptedTurn } from '@agentchart/providers';
import { z } from 'zod';

/** The shared-state key holding the id of the record read last. */
export const LAST_FETCHED = 'lastFetchedId';

export const updateRecord = defineTool({
  name: 'update_record',
  description: 'Update the status of a record.',
  parameters: z.object({ record_id: z.string(), status: z.string() }),
  execute: ({ record_id, status }) => `Updated record ${record_id} to status '${status}'.`,
});

export const getRecord = defineTool({
  name: 'get_record',
  description: 'Fetch a record. Unlocks update_record.',
  parameters: z.object({ record_id: z.string() }),
  execute: ({ record_id }, ctx) => {
    ctx.state.set(LAST_FETCHED, record_id);
    ctx.addTools(updateRecord); // the gate: expose the write tool now
    return `Record ${record_id}: title='Example record', status='open'`;
  },
});

/** Rejects `update_record` calls for another record than the one fetched last; the tool then never runs. */
export const enforceReadBeforeWrite: FunctionMiddleware = async (ctx, next) => {
  if (ctx.tool.name === 'update_record') {
    const requested = ctx.arguments.record_id;
    const lastFetched = ctx.toolContext.state.get(LAST_FETCHED);
    if (requested !== lastFetched) {
      ctx.result = `Error: you must fetch record '${String(requested)}' before updating it. Last fetched record was '${String(lastFetched)}'.`;
      return;
    }
  }
  await next();
};

/** A record agent: the gate alone, or the gate with the read-before-write middleware. */
export function recordAgent(model: ChatModel, options: { middleware?: boolean } = {}) {
  return createAgent({
    name: 'RecordAgent',
    model,
    instructions: 'You help manage records. Fetch a record before updating it.',
    tools: [getRecord], // update_record is hidden until get_record runs
    addableTools: [updateRecord],
    middleware: options.middleware ? [enforceReadBeforeWrite] : [],
  });
}

/** A model that fetches REC-1, then tries to update REC-2, then does it right. */
export const recordGateScript: ScriptedTurn[] = [
  { toolCalls: [{ name: 'get_record', arguments: { record_id: 'REC-1' } }] },
  { toolCalls: [{ name: 'update_record', arguments: { record_id: 'REC-2', status: 'in-progress' } }] },
  { toolCalls: [{ name: 'get_record', arguments: { record_id: 'REC-2' } }] },
  { toolCalls: [{ name: 'update_record', arguments: { record_id: 'REC-2', status: 'in-progress' } }] },
  { text: "REC-2 is now 'in-progress'." },
];
