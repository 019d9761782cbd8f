/**
 * The loader pattern: `pnpm example tool-loader`. The agent starts with only
 * `load_math_tools`; the model sees factorial and fibonacci from the call
 * after the loader ran.
 */
import { scriptedModel } from '@agentchart/providers';
import { printEvents } from '../printEvents.js';
import { mathAgent, mathLoaderScript } from '../toolControl/index.js';

const model = scriptedModel(mathLoaderScript);
const run = mathAgent(model).run('What is 5 factorial?');
printEvents(run.events$);
const result = await run.result;
console.log('\ntools offered per model call:');
model.requests.forEach((request, index) => console.log(`  ${index + 1}. ${request.tools.map((tool) => tool.name).join(', ')}`));
console.log(`answer: ${result.text}`);
