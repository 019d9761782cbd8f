/**
 * ReliableTool: `pnpm example reliable-tool`. A runner model calls a flight
 * search until a validator model accepts one result: the first call fails
 * (a date in words), the second result is rejected (a flight with a stop),
 * the third passes. Runs on scripted models; set OLLAMA_MODEL (e.g.
 * `OLLAMA_MODEL=qwen3:8b`) to run both actors on a local Ollama model.
 */
import type { ChatModel } from '@agentchart/core';
import { ollama, scriptedModel } from '@agentchart/providers';
import { flightRunnerScript, flightValidatorScript, printReliableToolEvents, reliableFlightSearch } from '../reliableTool/index.js';

const local = process.env.OLLAMA_MODEL;
const [runner, validator]: [ChatModel, ChatModel] = local
  ? [ollama({ model: local, options: { temperature: 0 } }), ollama({ model: local, options: { temperature: 0 } })]
  : [scriptedModel(flightRunnerScript), scriptedModel(flightValidatorScript)];
console.log(`ReliableTool example — models: ${local ? `ollama ${local}` : 'scripted (deterministic)'}\n`);

const findFlight = reliableFlightSearch(runner, validator);
printReliableToolEvents(findFlight.events$);

const details = await findFlight.runWithDetails({
  task: 'A flight to Berlin this Friday.',
  validationPromptAddition: '- The flight must be direct (0 stops).',
});
if (details.ok) {
  console.log('\nvalue returned to the program:', JSON.stringify(details.value));
  console.log('arguments that worked:', JSON.stringify(details.successfulArgs));
} else {
  console.log('\nno valid result:', details.failureReason);
  // A model that could not be reached is a failure of the command, not a result to show.
  if (details.error.code === 'RELIABLE_TOOL_MODEL_FAILED') process.exitCode = 1;
}
console.log('attempts:', details.attempts.map((attempt) => attempt.outcome).join(' → '));
