import type { ToolSource } from '@agentchart/actors';
import { type AnyTool, ConfigurationError, ToolError, defineTool } from '@agentchart/core';
import { z } from 'zod';
import { A2aError } from './a2aError.js';
import { textPart } from './a2aParts.js';
import { A2aRemote } from './a2aRemote.js';

/** What `a2aTool` takes. */
export interface A2aToolOptions {
  /** The remote agent's base URL, with its trailing slash. */
  url: string;
  /** The tool's name (default: the Agent Card's name, made a valid tool name). */
  name?: string;
}

/**
 * A remote A2A agent as one tool of an agent (a tool source: the agent
 * loads it, reading the Agent Card, before its first model request). A call
 * `{ input }` sends the input as a new task and returns its answer; a task
 * that fails, is canceled or waits for input is an error result the model
 * reads. Aborting the run cancels the remote task.
 *
 * @example
 * const agent = createAgent({ name: 'planner', model, toolSources: [a2aTool({ url: 'http://127.0.0.1:4000/a2a/booking/' })] });
 */
export function a2aTool(options: A2aToolOptions): ToolSource {
  if (typeof options?.url !== 'string') throw new ConfigurationError("a2aTool({ url }) takes the remote agent's base URL.");
  const url = options.url.endsWith('/') ? options.url : `${options.url}/`;
  const remote = new A2aRemote(url);
  let tools: Promise<readonly AnyTool[]> | undefined;
  const load = async (): Promise<readonly AnyTool[]> => {
    const card = await (await remote.client()).getAgentCard();
    const name = options.name ?? toolNameOf(card.name);
    const skills = card.skills.map((skill) => `${skill.name}: ${skill.description}`).join('; ');
    const tool = defineTool({
      name,
      description: `${card.description}${skills === '' ? '' : ` (skills: ${skills})`} Gives it a task and returns its answer.`,
      parameters: z.object({ input: z.string().describe('The task or question, in plain language.') }),
      execute: async ({ input }, ctx) => {
        try {
          const reply = await remote.send([textPart(input)], {}, ctx.signal);
          if (reply.kind === 'answer') return reply.text;
          void remote.cancel(reply.taskId);
          throw new ToolError(`The remote agent "${card.name}" asked for input a tool call cannot give (${reply.question}); its task was canceled.`);
        } catch (error) {
          if (error instanceof A2aError) throw new ToolError(error.message, { ...error.details }, { cause: error });
          throw error;
        }
      },
    });
    return [tool];
  };
  return {
    name: options.name ?? sourceNameOf(url),
    loadTools: () => {
      tools ??= load().catch((error: unknown) => {
        tools = undefined;
        throw error;
      });
      return tools;
    },
    onToolsChanged: () => () => {},
    close: async () => {},
  };
}

function toolNameOf(name: string): string {
  const cleaned = name.replace(/[^a-zA-Z0-9_-]+/g, '_').slice(0, 64);
  return cleaned === '' ? 'a2a_agent' : cleaned;
}

/** The source's name from the URL: the last path segment (`/a2a/booking/` → `booking`). */
function sourceNameOf(url: string): string {
  const segments = new URL(url).pathname.split('/').filter((segment) => segment !== '');
  return toolNameOf(segments.at(-1) ?? new URL(url).hostname);
}
