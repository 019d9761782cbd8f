/**
 * A group chat: `pnpm example group-chat`. A planner, a researcher whose
 * tools follow tool rules (search first, then read), and a critic. The
 * transitions statechart decides who may follow whom, the researcher hands
 * off to the critic with a `transfer_to_critic` tool, and the critic's
 * "APPROVED" ends the chat. Runs on the scripted model.
 */
import { scriptedModel } from '@agentchart/providers';
import { printChatEvents, researchTeam, researchTeamScript } from '../groupChat/index.js';

// `agentchart view group-chat` sets a latency so each reply can be watched arriving.
const slow = process.env.AGENTCHART_EXAMPLE_LATENCY_MS;
const options = { latencyMs: slow === undefined ? 0 : Number(slow) };
const chat = researchTeam({
  planner: scriptedModel(researchTeamScript.planner, options),
  researcher: scriptedModel(researchTeamScript.researcher, options),
  critic: scriptedModel(researchTeamScript.critic, options),
});
console.log(`participants: ${chat.participants.join(', ')}; transition warnings: ${chat.warnings.length}`);
const run = chat.run('How many hearts does an octopus have?');
printChatEvents(run.events$);
const result = await run.result;
console.log(`sources: ${JSON.stringify(result.sharedState.sources)}`);
