import type { Agent, GroupChat } from '@agentchart/actors';
import { type AnyTool, ConfigurationError } from '@agentchart/core';
import { TOOL_NAME_PATTERN } from '@agentchart/core/internal';

/**
 * An agent to serve. Given as a function, it is built for each run with the
 * input's frontend tools, so the model is offered them (give them to the
 * agent's `tools`); a plain agent is offered only its own tools.
 */
export interface ServedAgent {
  agent: Agent | ((frontendTools: readonly AnyTool[]) => Agent);
  /** The last segment of its URL, `POST /ag-ui/<name>` (default: the agent's name; required with a function). */
  name?: string;
}

/** A group chat to serve; given as a function, it is built for each run with the input's frontend tools. */
export interface ServedChat {
  chat: GroupChat | ((frontendTools: readonly AnyTool[]) => GroupChat);
  /** Default: the chat's name; required with a function. */
  name?: string;
}

/** One endpoint of `serveAgUi`: an agent or a chat behind a name, built for a run's frontend tools. */
export type ServedTarget =
  | { kind: 'agent'; name: string; build: (frontendTools: readonly AnyTool[]) => Agent; takesFrontendTools: boolean }
  | { kind: 'chat'; name: string; build: (frontendTools: readonly AnyTool[]) => GroupChat; takesFrontendTools: boolean };

/** The endpoints `serveAgUi` answers; a name used twice (or not 1 to 64 letters, digits, `_`, `-`) throws `ConfigurationError`. */
export function servedTargets(agents: readonly (Agent | ServedAgent)[], chats: readonly (GroupChat | ServedChat)[]): Map<string, ServedTarget> {
  const targets: ServedTarget[] = [
    ...agents.map((entry): ServedTarget => {
      const served: ServedAgent = 'agent' in entry ? entry : { agent: entry };
      const { agent } = served;
      if (typeof agent === 'function') return { kind: 'agent', name: requiredName(served.name), build: agent, takesFrontendTools: true };
      return { kind: 'agent', name: served.name ?? agent.name, build: () => agent, takesFrontendTools: false };
    }),
    ...chats.map((entry): ServedTarget => {
      const served: ServedChat = 'chat' in entry ? entry : { chat: entry };
      const { chat } = served;
      if (typeof chat === 'function') return { kind: 'chat', name: requiredName(served.name), build: chat, takesFrontendTools: true };
      return { kind: 'chat', name: served.name ?? chat.name, build: () => chat, takesFrontendTools: false };
    }),
  ];
  if (targets.length === 0) throw new ConfigurationError('serveAgUi({ agents, chats }) needs at least one agent or group chat to serve.');
  const byName = new Map<string, ServedTarget>();
  for (const target of targets) {
    if (!TOOL_NAME_PATTERN.test(target.name)) {
      throw new ConfigurationError(`serveAgUi: the name ${JSON.stringify(target.name)} is not 1 to 64 letters, digits, "_" or "-": give a \`name\`.`);
    }
    if (byName.has(target.name)) {
      throw new ConfigurationError(`serveAgUi: two served agents or chats are named "${target.name}": give one a \`name\`.`, { name: target.name });
    }
    byName.set(target.name, target);
  }
  return byName;
}

function requiredName(name: string | undefined): string {
  if (name === undefined)
    throw new ConfigurationError('serveAgUi: an agent or chat given as a function needs a `name`: { name, agent: (tools) => ... }.');
  return name;
}
