/**
 * Read-before-write middleware: `pnpm example read-before-write`. A function
 * middleware rejects an update of a record other than the one fetched last,
 * without running the tool; the model reads the correction and fixes it.
 */
import { scriptedModel } from '@agentchart/providers';
import { printEvents } from '../printEvents.js';
import { recordAgent, recordGateScript } from '../toolControl/index.js';

const run = recordAgent(scriptedModel(recordGateScript), { middleware: true }).run("Set REC-2 to 'in-progress'.");
printEvents(run.events$);
const result = await run.result;
console.log(`\nshared state at the end: ${JSON.stringify(result.state)}`);
