import type { Agent, GroupChat } from '@agentchart/actors';
import { ConfigurationError } from '@agentchart/core';
import { TOOL_NAME_PATTERN } from '@agentchart/core/internal';

/** An agent to serve, with how MCP clients see it. */
export interface ServedAgent {
  agent: Agent;
  /** The MCP tool's name (default: the agent's name). */
  toolName?: string;
  /** What the tool does, for the client's model (default: a sentence naming the agent). */
  description?: string;
}

/** A group chat to serve, with how MCP clients see it. */
export interface ServedChat {
  chat: GroupChat;
  toolName?: string;
  description?: string;
}

/** One MCP tool of `serveMcp`: an agent or a chat behind a name. */
export type ServedTarget =
  | { kind: 'agent'; toolName: string; description: string; agent: Agent }
  | { kind: 'chat'; toolName: string; description: string; chat: GroupChat };

/** The tools `serveMcp` offers; a name used twice (or not a valid tool name) throws `ConfigurationError`. */
export function servedTargets(agents: readonly (Agent | ServedAgent)[], chats: readonly (GroupChat | ServedChat)[]): ServedTarget[] {
  const targets: ServedTarget[] = [
    ...agents.map((entry): ServedTarget => {
      const served: ServedAgent = 'agent' in entry ? entry : { agent: entry };
      const name = served.agent.name;
      return {
        kind: 'agent',
        toolName: served.toolName ?? name,
        description: served.description ?? `Gives a task to the agent "${name}" and returns its answer.`,
        agent: served.agent,
      };
    }),
    ...chats.map((entry): ServedTarget => {
      const served: ServedChat = 'chat' in entry ? entry : { chat: entry };
      const { chat } = served;
      return {
        kind: 'chat',
        toolName: served.toolName ?? chat.name,
        description:
          served.description ??
          chat.description ??
          `Gives a task to the group chat "${chat.name}" (${chat.participants.join(', ')}) and returns its last message; progress notifications carry each turn.`,
        chat,
      };
    }),
  ];
  if (targets.length === 0) throw new ConfigurationError('serveMcp({ agents, chats }) needs at least one agent or group chat to serve.');
  const names = new Set<string>();
  for (const target of targets) {
    if (!TOOL_NAME_PATTERN.test(target.toolName)) {
      throw new ConfigurationError(
        `serveMcp: the tool name ${JSON.stringify(target.toolName)} is not 1 to 64 letters, digits, "_" or "-": give a \`toolName\`.`,
      );
    }
    if (names.has(target.toolName)) {
      throw new ConfigurationError(`serveMcp: two served agents or chats are named "${target.toolName}": give one a \`toolName\`.`, {
        toolName: target.toolName,
      });
    }
    names.add(target.toolName);
  }
  return targets;
}
