/**
 * Approval with persistence: `pnpm example approval`. The transfer of 250
 * waits for a person; the waiting run is saved as JSON, and a fresh agent
 * resumes it and applies the decisions (Bob approved).
 */
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { scriptedModel } from '@agentchart/providers';
import { firstValueFrom, filter } from 'rxjs';
import { printEvents } from '../printEvents.js';
import { paymentAgent, paymentScript } from '../toolControl/index.js';

const run = paymentAgent(scriptedModel(paymentScript)).run('Pay Ann 40 and Bob 250.');
printEvents(run.events$);
await firstValueFrom(run.events$.pipe(filter((event) => event.type === 'approval.requested')));
console.log(`waiting for: ${run.pendingApprovals.map((request) => `${request.toolName} ${JSON.stringify(request.arguments)}`).join('; ')}`);

const file = join(await mkdtemp(join(tmpdir(), 'agentchart-')), 'run.json');
await writeFile(file, JSON.stringify(run.persist(), null, 2));
console.log(`saved the waiting run to ${file}; this process now drops its copy (the run is on disk):`);
run.abort(); // a real process could simply exit here
await run.result;
console.log('\nresuming the run from the file with a fresh agent; a person approves the transfer to Bob\n');

const resumed = paymentAgent(scriptedModel(paymentScript)).resume(JSON.parse(await readFile(file, 'utf8')));
printEvents(resumed.events$);
resumed.approve('pay_bob');
const result = await resumed.result;
console.log(`\nresult: ${result.text}`);
