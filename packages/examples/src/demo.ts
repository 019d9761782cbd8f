/**
 * The demo: an agent with three tools, its event stream printed so a person
 * can follow who said what and which tool did what. It runs on Ollama when a
 * model is named (`--model qwen3:8b`, or AGENTCHART_MODEL / OLLAMA_MODEL) and
 * a server answers at OLLAMA_HOST; otherwise on the scripted model.
 */
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { chooseDemoModel } from './chooseDemoModel.js';
import { printEvents } from './printEvents.js';
import { travelTools } from './travelTools.js';

const scripted = () =>
  scriptedModel([
    {
      text: 'Let me check the weather and the exchange rate.',
      chunks: 12,
      toolCalls: [
        { name: 'get_weather', arguments: { city: 'Lisbon' } },
        { name: 'convert_currency', arguments: { amount: 100, from: 'USD', to: 'EUR' } },
      ],
    },
    { toolCalls: [{ name: 'add_reminder', arguments: { text: 'Pack sunglasses', day: 'Friday' } }] },
    { text: 'Lisbon is sunny at 24°C, 100 USD is 92 EUR, and I set a reminder to pack sunglasses on Friday.', chunks: 16 },
  ]);

const { model, description } = await chooseDemoModel({ argv: process.argv.slice(2), env: process.env, fallback: scripted });

const agent = createAgent({
  name: 'travel_agent',
  model,
  instructions: 'You help people plan trips. Use the tools.',
  tools: travelTools,
});

console.log(`agentchart demo — model: ${description}\n`);
const run = agent.run('I fly to Lisbon on Friday with 100 USD. What should I know?');
printEvents(run.events$);
const result = await run.result;
console.log(`\nstop reason: ${result.stopReason}, steps: ${result.steps}, tool calls: ${result.toolCalls.length}`);
