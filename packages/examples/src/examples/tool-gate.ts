/**
 * The gate pattern: `pnpm example tool-gate`. update_record is hidden until
 * get_record has run, in every run: the agent's own tool list never changes.
 */
import { scriptedModel } from '@agentchart/providers';
import { printEvents } from '../printEvents.js';
import { recordAgent } from '../toolControl/index.js';

const model = scriptedModel([
  { toolCalls: [{ name: 'get_record', arguments: { record_id: 'REC-42' } }] },
  { toolCalls: [{ name: 'update_record', arguments: { record_id: 'REC-42', status: 'in-progress' } }] },
  { text: "REC-42 is now 'in-progress'." },
  { text: 'A new run starts locked again.' },
]);
const agent = recordAgent(model);
const run = agent.run("Update record REC-42 to status 'in-progress'.", {
  toolChoice: { mode: 'required', requiredFunctionName: 'get_record' },
});
printEvents(run.events$);
await run.result;
await agent.run('And now?').result;
console.log('\ntools offered per model call (the 4th is a new run):');
model.requests.forEach((request, index) =>
  console.log(`  ${index + 1}. ${request.tools.map((tool) => tool.name).join(', ')}  (toolChoice ${JSON.stringify(request.toolChoice)})`),
);
