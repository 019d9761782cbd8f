/**
 * Tool rules you can watch: `pnpm example research-rules`, or live in the
 * browser with `pnpm agentchart view research-rules`. The researcher must
 * search first, may only read or answer after a search, and ends with
 * `answer`; its first, premature answer is refused.
 */
import { researchAgent } from '../research/researchAgent.js';
import { printEvents } from '../printEvents.js';

const slow = process.env.AGENTCHART_EXAMPLE_LATENCY_MS;
const run = researchAgent({ latencyMs: slow === undefined ? 0 : Number(slow) }).run('Which is the oldest lighthouse still in use?');
printEvents(run.events$);
const result = await run.result;
console.log(`\nstop reason: ${result.stopReason}, steps: ${result.steps}`);
