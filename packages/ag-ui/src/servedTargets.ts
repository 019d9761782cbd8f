import type { Agent, GroupChat } from '@agentchart/actors';
import { ConfigurationError } from '@agentchart/core';
import { TOOL_NAME_PATTERN } from '@agentchart/core/internal';

/** An agent to serve, under a name of its own (default: the agent's name). */
export interface ServedAgent {
  agent: Agent;
  /** The last segment of its URL, `POST /ag-ui/<name>`. */
  name?: string;
}

/** A group chat to serve, under a name of its own (default: the chat's name). */
export interface ServedChat {
  chat: GroupChat;
  name?: string;
}

/** One endpoint of `serveAgUi`: an agent or a chat behind a name. */
export type ServedTarget = { kind: 'agent'; name: string; agent: Agent } | { kind: 'chat'; name: string; chat: GroupChat };

/** The endpoints `serveAgUi` answers; a name used twice (or not 1 to 64 letters, digits, `_`, `-`) throws `ConfigurationError`. */
export function servedTargets(agents: readonly (Agent | ServedAgent)[], chats: readonly (GroupChat | ServedChat)[]): Map<string, ServedTarget> {
  const targets: ServedTarget[] = [
    ...agents.map((entry): ServedTarget => {
      const served: ServedAgent = 'agent' in entry ? entry : { agent: entry };
      return { kind: 'agent', name: served.name ?? served.agent.name, agent: served.agent };
    }),
    ...chats.map((entry): ServedTarget => {
      const served: ServedChat = 'chat' in entry ? entry : { chat: entry };
      return { kind: 'chat', name: served.name ?? served.chat.name, chat: served.chat };
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
