/**
 * The agent of the crash test, built alike by the driver and every worker:
 * one reply calls `pay` (asks for approval), `notify` (asks nothing, not
 * idempotent) and `refresh` (idempotent: a service that deduplicates by
 * `ctx.idempotencyKey`); then the model answers. Each tool appends its
 * effect to an external ledger file (outside the store), with pauses before
 * and after, so a kill can land before, during or after the effect.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { type Agent, createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { type JournaledToolOptions, journaledTool } from '../durability/journaledTool.js';

/** The effects in the ledger: one `<idempotencyKey> <tool>` line each. */
export function readLedger(path: string): string[] {
  return existsSync(path)
    ? readFileSync(path, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
    : [];
}

const pause = () => new Promise((resolve) => setTimeout(resolve, Math.floor(Math.random() * 8)));

/** The three tools, each appending its effect to `ledger`. */
export function chaosTools(ledger: string) {
  const effect = (name: string, options: JournaledToolOptions) =>
    journaledTool(name, options, async (_to, ctx) => {
      await pause();
      const line = `${ctx.idempotencyKey} ${name}`;
      // An idempotent service: a request it has seen is not applied again.
      if (!(options.idempotent && readLedger(ledger).includes(line))) appendFileSync(ledger, `${line}\n`);
      if (process.env.CHAOS_TRACE) process.stdout.write(`exec ${name}\n`);
      await pause();
    });
  return [effect('pay', { approval: 'always' }), effect('notify', {}), effect('refresh', { idempotent: true })];
}

export function chaosAgent(ledger: string): Agent {
  const model = scriptedModel((request) =>
    request.messages.some((message) => message.role === 'tool')
      ? { text: 'all paid' }
      : {
          toolCalls: [
            { id: 'pay', name: 'pay', arguments: { to: 'Bob' } },
            { id: 'notify', name: 'notify', arguments: { to: 'Bob' } },
            { id: 'refresh', name: 'refresh', arguments: { to: 'Bob' } },
          ],
        },
  );
  return createAgent({
    name: 'chaos_payer',
    model,
    tools: chaosTools(ledger),
  });
}
