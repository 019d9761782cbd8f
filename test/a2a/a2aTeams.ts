/** The agents and chats the A2A tests serve, on scripted models (a new set per call: scripts are consumed). */
import { createAgent, createGroupChat, humanAgent } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

/** What the tools did, in order. */
export type ToolLog = string[];

/** A three-agent chat: the engineer's `deploy` waits for approval. */
export function releaseTeam(log: ToolLog = []) {
  const runChecks = defineTool({
    name: 'run_checks',
    description: 'Runs the release checks.',
    parameters: z.object({}),
    execute: () => {
      log.push('run_checks');
      return 'all 12 checks green';
    },
  });
  const deploy = defineTool({
    name: 'deploy',
    description: 'Deploys a version to production.',
    parameters: z.object({ version: z.string() }),
    approval: 'always',
    execute: ({ version }) => {
      log.push(`deploy ${version}`);
      return `deployed ${version}`;
    },
  });
  const planner = createAgent({
    name: 'planner',
    instructions: 'Plans the release.',
    model: scriptedModel([{ text: 'Plan: run the checks, then deploy v2.' }]),
  });
  const engineer = createAgent({
    name: 'engineer',
    instructions: 'Runs the checks and deploys.',
    tools: [runChecks, deploy],
    // Answers from what it is shown, so a chat resumed in another process goes on where it was.
    model: scriptedModel((request) => {
      const last = request.messages.at(-1);
      if (last?.role === 'tool' && last.toolName === 'run_checks')
        return { toolCalls: [{ id: 'deploy-1', name: 'deploy', arguments: { version: 'v2' } }] };
      if (last?.role === 'tool' && last.toolName === 'deploy') return { text: 'Checks green; deploy of v2 handled.' };
      return { toolCalls: [{ id: 'checks-1', name: 'run_checks', arguments: {} }] };
    }),
  });
  const reviewer = createAgent({
    name: 'reviewer',
    instructions: 'Reviews what was shipped.',
    model: scriptedModel([{ text: 'Reviewed: v2 release is done.' }]),
  });
  return createGroupChat({
    name: 'release_team',
    description: 'Plans, ships and reviews a release.',
    agents: [planner, engineer, reviewer],
    speakerSelection: 'round_robin',
    maxRounds: 3,
  });
}

/** A single agent that answers at once. */
export function greeter() {
  return createAgent({ name: 'greeter', instructions: 'Greets people by name.', model: scriptedModel([{ text: 'Hello, Ada!' }]) });
}

/** A chat where a person, alice, speaks second. */
export function reviewDesk() {
  const writer = createAgent({
    name: 'writer',
    instructions: 'Drafts release notes.',
    model: scriptedModel([{ text: 'Draft: v2 adds A2A.' }, { text: 'Final: v2 adds A2A and AG-UI.' }]),
  });
  const alice = humanAgent({ name: 'alice', description: 'Reviews drafts.' });
  return createGroupChat({ name: 'review_desk', agents: [writer, alice], speakerSelection: 'round_robin', maxRounds: 3 });
}

/** An agent whose tool runs until it is aborted; `log` records the abort. */
export function slowWorker(log: ToolLog = [], started: () => void = () => {}) {
  const crunch = defineTool({
    name: 'crunch',
    description: 'Crunches numbers for a long time.',
    parameters: z.object({}),
    execute: (_args, ctx) =>
      new Promise<string>((_resolve, reject) => {
        log.push('crunch started');
        started();
        ctx.signal.addEventListener('abort', () => {
          log.push('crunch aborted');
          reject(new Error('aborted'));
        });
      }),
  });
  return createAgent({
    name: 'worker',
    instructions: 'Crunches numbers.',
    tools: [crunch],
    model: scriptedModel([{ toolCalls: [{ name: 'crunch', arguments: {} }] }, { text: 'never reached' }]),
  });
}
