/**
 * The release team of `pnpm example a2a`: a planner, an engineer whose
 * `deploy` waits for a person's approval, and a reviewer, on scripted models.
 */
import { createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

const runChecks = defineTool({
  name: 'run_checks',
  description: 'Runs the release checks.',
  parameters: z.object({}),
  execute: () => 'all 12 checks green',
});

const deploy = defineTool({
  name: 'deploy',
  description: 'Deploys a version to production.',
  parameters: z.object({ version: z.string() }),
  approval: 'always',
  execute: ({ version }) => `deployed ${version}`,
});

/** A new team (the scripted models' replies are consumed by a run). */
export function releaseTeam() {
  const planner = createAgent({
    name: 'planner',
    instructions: 'Plans the release.',
    model: scriptedModel([{ text: 'Plan: run the checks, then deploy v2.' }]),
  });
  const engineer = createAgent({
    name: 'engineer',
    instructions: 'Runs the checks and deploys.',
    tools: [runChecks, deploy],
    model: scriptedModel([
      { toolCalls: [{ id: 'checks-1', name: 'run_checks', arguments: {} }] },
      { toolCalls: [{ id: 'deploy-1', name: 'deploy', arguments: { version: 'v2' } }] },
      { text: 'Checks green; v2 is deployed.' },
    ]),
  });
  const reviewer = createAgent({
    name: 'reviewer',
    instructions: 'Reviews what was shipped.',
    model: scriptedModel([{ text: 'Reviewed: the v2 release is done.' }]),
  });
  return createGroupChat({
    name: 'release_team',
    description: 'Plans, ships and reviews a release.',
    agents: [planner, engineer, reviewer],
    speakerSelection: 'round_robin',
    maxRounds: 3,
  });
}
