/**
 * The worker module of the DBOS tests and the scale-out bench: four-agent
 * chats whose agents each call one tool that appends to an external ledger
 * table (so a test can count how often each call ran), and a chat whose
 * payer waits for an approval. Models are scripted (a reply computed from the
 * request), with `AGENTCHART_MODEL_LATENCY_MS` of latency.
 */
import { createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { durableModel, durableToolJournal } from '@agentchart/dbos';
import { scriptedModel } from '@agentchart/providers';
import pg from 'pg';
import { z } from 'zod';

const latencyMs = Number(process.env.AGENTCHART_MODEL_LATENCY_MS ?? 0);
let pool: pg.Pool | undefined;
const ledger = () => (pool ??= new pg.Pool({ connectionString: process.env.DBOS_DATABASE_URL, max: 4 }));

/** The ledger table: one row per execution of a tool (never deduplicated here: duplicates are what the tests look for). */
export const LEDGER_TABLE_SQL = `CREATE TABLE IF NOT EXISTS test_ledger (
  id BIGSERIAL PRIMARY KEY, idempotency_key TEXT NOT NULL, tool TEXT NOT NULL, detail TEXT NOT NULL, pid INT NOT NULL, executor TEXT)`;

const note = defineTool({
  name: 'note',
  description: 'Writes a note to the ledger.',
  parameters: z.object({ text: z.string() }),
  execute: async ({ text }, ctx) => {
    await ledger().query('INSERT INTO test_ledger (idempotency_key, tool, detail, pid, executor) VALUES ($1, $2, $3, $4, $5)', [
      ctx.idempotencyKey,
      'note',
      text,
      process.pid,
      process.env.DBOS__VMID ?? null,
    ]);
    return `noted: ${text}`;
  },
});

/** A payer agent whose `pay` call (model id `call_1`, like every payer's) waits for approval. */
const payer = (name: string, to: string, amount: number) =>
  createAgent({
    name,
    model: toolThenText(name, () => ({ name: 'pay', arguments: { to, amount } })),
    tools: [pay],
    middleware: [durableToolJournal()],
  });

const pay = defineTool({
  name: 'pay',
  description: 'Pays someone (needs approval).',
  parameters: z.object({ to: z.string(), amount: z.number() }),
  approval: 'always',
  execute: async ({ to, amount }, ctx) => {
    await ledger().query('INSERT INTO test_ledger (idempotency_key, tool, detail, pid, executor) VALUES ($1, $2, $3, $4, $5)', [
      ctx.idempotencyKey,
      'pay',
      `${to} ${amount}`,
      process.pid,
      process.env.DBOS__VMID ?? null,
    ]);
    return `paid ${to} ${amount}`;
  },
});

/** Each agent: a call of its tool first, then (once the tool's result is in) a reply. */
function toolThenText(name: string, toolCall: (messageCount: number) => { name: string; arguments: unknown }) {
  return durableModel(
    scriptedModel(
      (request) => {
        const last = request.messages.at(-1);
        if (last?.role === 'tool') return { text: `${name} done after ${request.messages.length} messages` };
        return { toolCalls: [{ ...toolCall(request.messages.length), id: 'call_1' }] };
      },
      { name, latencyMs, recordRequests: false },
    ),
  );
}

const agentsOf = (names: string[]) =>
  names.map((name) =>
    createAgent({
      name,
      model: toolThenText(name, (count) => ({ name: 'note', arguments: { text: `${name} at ${count}` } })),
      tools: [note],
      middleware: [durableToolJournal()],
    }),
  );

export const chats = {
  /** Four agents, one turn each, each calling `note` once: 4 model calls… 8 model calls, 4 tool calls. */
  fourAgents: createGroupChat({ agents: agentsOf(['ann', 'bob', 'cy', 'dee']), speakerSelection: 'round_robin', maxRounds: 4 }),
  /** Like `fourAgents`, with a random speaker order (seeded from the chat id). */
  randomFour: createGroupChat({ agents: agentsOf(['ann', 'bob', 'cy', 'dee']), speakerSelection: 'random', maxRounds: 4 }),
  /** A payer whose `pay` call waits for approval, then a checker. */
  payment: createGroupChat({
    agents: [
      createAgent({
        name: 'payer',
        model: toolThenText('payer', () => ({ name: 'pay', arguments: { to: 'Bob', amount: 250 } })),
        tools: [pay],
        middleware: [durableToolJournal()],
      }),
      ...agentsOf(['checker']),
    ],
    speakerSelection: 'round_robin',
    maxRounds: 2,
  }),
  /** `payer` pays Bob 10, then `payer_b` pays Mallory 50,000: both calls need approval, both have the model id `call_1`. */
  twoPayers: createGroupChat({
    agents: [payer('payer', 'Bob', 10), payer('payer_b', 'Mallory', 50_000)],
    speakerSelection: 'round_robin',
    maxRounds: 2,
  }),
};

/** Closes the ledger's pool (tests that import this module in-process). */
export async function closeLedger(): Promise<void> {
  await pool?.end();
  pool = undefined;
}
