/**
 * A group chat: `pnpm example group-chat`. A planner, a researcher whose
 * tools follow tool rules (search first, then read), and a critic. The
 * transitions statechart decides who may follow whom, the researcher hands
 * off to the critic with a `transfer_to_critic` tool, and the critic's
 * "APPROVED" ends the chat. Runs on the scripted model.
 */
import { scriptedModel } from '@agentchart/providers';
import { printChatEvents, researchTeam, researchTeamScript } from '../groupChat/index.js';

const chat = researchTeam({
  planner: scriptedModel(researchTeamScript.planner),
  researcher: scriptedModel(researchTeamScript.researcher),
  critic: scriptedModel(researchTeamScript.critic),
});
console.log(`participants: ${chat.participants.join(', ')}; transition warnings: ${chat.warnings.length}`);
const run = chat.run('How many hearts does an octopus have?');
printChatEvents(run.events$);
const result = await run.result;
console.log(`sources: ${JSON.stringify(result.sharedState.sources)}`);
