import { researchTeam, researchTeamScript } from '@agentchart/examples';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';

describe('the research-team example', () => {
  it('plans, researches under tool rules, hands off to the critic and ends on APPROVED', async () => {
    const researcherModel = scriptedModel(researchTeamScript.researcher);
    const chat = researchTeam({
      planner: scriptedModel(researchTeamScript.planner),
      researcher: researcherModel,
      critic: scriptedModel(researchTeamScript.critic),
    });
    const result = await chat.run('How many hearts does an octopus have?').result;
    expect(result).toMatchObject({
      reason: 'terminate-message',
      rounds: 3,
      lastSpeaker: 'critic',
      sharedState: { sources: ['https://example.org/octopus'] },
    });
    expect(result.turns.map((turn) => turn.speaker)).toEqual(['planner', 'researcher', 'critic']);
    // The rules offered search_web alone first, then read_page alone after it.
    expect(researcherModel.requests.map((request) => request.tools.map((tool) => tool.name))).toEqual([
      ['search_web'],
      ['read_page'],
      ['search_web', 'read_page', 'transfer_to_critic'],
    ]);
  });
});
