/**
 * Validated citations: `pnpm example citations`. The agent must retrieve
 * context before answering, may not retrieve twice in a row, and every fact
 * of its answer must quote the context exactly. Runs on the scripted model,
 * which makes each mistake once so you can see the tools talk back.
 */
import { scriptedModel } from '@agentchart/providers';
import { citationsAgent, citationsScript } from '../citations/index.js';
import { printEvents } from '../printEvents.js';

const run = citationsAgent(scriptedModel(citationsScript)).run('Which is the oldest lighthouse still in use?');
printEvents(run.events$);
const result = await run.result;
const answer = result.toolCalls.find((record) => record.call.name === 'AnswerQuestion' && !record.isError);
console.log('\nvalidated answer:', JSON.stringify(answer?.value, null, 2));
console.log('shared state at the end:', JSON.stringify(result.state));
