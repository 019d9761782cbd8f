/**
 * A research team as a group chat: a planner, a researcher whose tools are
 * ordered by tool rules (search first, then read what was found), and a
 * critic who approves or sends the researcher back. Transitions say who may
 * follow whom; the researcher hands off to the critic with a tool; the
 * critic's "APPROVED" ends the chat.
 */
import { type GroupChat, createAgent, createGroupChat } from '@agentchart/actors';
import { type ChatModel, defineTool, rules } from '@agentchart/core';
import { z } from 'zod';

const pages: Record<string, string> = {
  'https://example.org/octopus': 'The octopus has three hearts: two pump blood through the gills, one through the body.',
};

export const searchWeb = defineTool({
  name: 'search_web',
  description: 'Searches the web; returns page URLs.',
  parameters: z.object({ query: z.string() }),
  execute: () => Object.keys(pages),
});

export const readPage = defineTool({
  name: 'read_page',
  description: 'Reads a page found by search_web and records it as a source.',
  parameters: z.object({ url: z.string() }),
  execute: ({ url }, ctx) => {
    const text = pages[url];
    if (text === undefined) throw new Error(`No page at ${url}: read a URL that search_web returned.`);
    ctx.state.update('sources', (sources) => [...((sources as string[] | undefined) ?? []), url]);
    return text;
  },
});

/** The models of the three members (scripted in the example, Ollama or OpenAI in real use). */
export interface TeamModels {
  planner: ChatModel;
  researcher: ChatModel;
  critic: ChatModel;
}

/** Builds the team. */
export function researchTeam(models: TeamModels): GroupChat {
  const planner = createAgent({
    name: 'planner',
    model: models.planner,
    instructions: 'You split the question into research steps for the researcher.',
  });
  const researcher = createAgent({
    name: 'researcher',
    model: models.researcher,
    instructions: 'You research with your tools, answer with sources, then hand off to the critic.',
    tools: [searchWeb, readPage],
    toolRules: [rules.init('search_web'), rules.child('search_web', ['read_page']), rules.maxCount('search_web', 2)],
  });
  const critic = createAgent({
    name: 'critic',
    model: models.critic,
    instructions: 'You check the answer against its sources. Say APPROVED when it holds; otherwise say what to fix.',
  });
  return createGroupChat({
    agents: [
      planner,
      { agent: researcher, handoffs: [{ to: 'critic', description: 'Hand your sourced answer to the critic.' }] },
      { agent: critic, description: 'Checks answers against their sources.' },
    ],
    speakerSelection: 'round_robin',
    transitions: { allowed: { planner: ['researcher'], researcher: ['critic'], critic: ['researcher', 'planner'] } },
    terminate: 'APPROVED',
    sharedState: { sources: [] },
    maxRounds: 8,
  });
}

/** The scripted replies that play the example without a model server. */
export const researchTeamScript = {
  planner: [{ text: 'Step 1: find how many hearts an octopus has, with a source. Step 2: the critic checks it.', chunks: 24 }],
  researcher: [
    { toolCalls: [{ name: 'search_web', arguments: { query: 'octopus hearts' } }] },
    { toolCalls: [{ name: 'read_page', arguments: { url: 'https://example.org/octopus' } }] },
    {
      text: 'An octopus has three hearts (https://example.org/octopus).',
      chunks: 20,
      toolCalls: [{ name: 'transfer_to_critic' }],
    },
  ],
  critic: [{ text: 'The claim matches the source. APPROVED', chunks: 16 }],
};
