import type { Agent, GroupChat } from '@agentchart/actors';
import { ConfigurationError } from '@agentchart/core';

/** An agent to serve over A2A, with how its Agent Card describes it. */
export interface ServedA2aAgent {
  agent: Agent;
  /** The name in the URL (`/a2a/<name>/`) and the card (default: the agent's name). */
  name?: string;
  /** The card's description (default: the agent's instructions). */
  description?: string;
}

/** A group chat to serve over A2A. */
export interface ServedA2aChat {
  chat: GroupChat;
  name?: string;
  /** The card's description (default: the chat's `description`, else a sentence naming its members). */
  description?: string;
}

/** One skill of a served target's card. */
export interface A2aSkill {
  readonly id: string;
  readonly name: string;
  readonly description: string;
}

/** An agent or a chat behind a name, with what its card says. */
export type A2aTarget =
  | { kind: 'agent'; name: string; description: string; skills: readonly A2aSkill[]; agent: Agent }
  | { kind: 'chat'; name: string; description: string; skills: readonly A2aSkill[]; chat: GroupChat };

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** The targets `serveA2a` serves; a name used twice, or not URL-safe, throws `ConfigurationError`. */
export function servedA2aTargets(agents: readonly (Agent | ServedA2aAgent)[], chats: readonly (GroupChat | ServedA2aChat)[]): A2aTarget[] {
  const targets: A2aTarget[] = [
    ...agents.map((entry): A2aTarget => {
      const served: ServedA2aAgent = 'agent' in entry ? entry : { agent: entry };
      const { agent } = served;
      const instructions = agent.instructions ?? '';
      const description = served.description ?? (instructions !== '' ? instructions : `The agent "${agent.name}".`);
      return {
        kind: 'agent',
        name: served.name ?? agent.name,
        description,
        skills: [{ id: agent.name, name: agent.name, description: instructions !== '' ? instructions : description }],
        agent,
      };
    }),
    ...chats.map((entry): A2aTarget => {
      const served: ServedA2aChat = 'chat' in entry ? entry : { chat: entry };
      const { chat } = served;
      return {
        kind: 'chat',
        name: served.name ?? chat.name,
        description: served.description ?? chat.description ?? `A group chat of ${chat.participants.join(', ')}.`,
        skills: chat.members.map((member) => ({
          id: member.name,
          name: member.name,
          description: member.description || `The participant "${member.name}".`,
        })),
        chat,
      };
    }),
  ];
  if (targets.length === 0) throw new ConfigurationError('serveA2a({ agents, chats }) needs at least one agent or group chat to serve.');
  const names = new Set<string>();
  for (const target of targets) {
    if (!NAME.test(target.name)) {
      throw new ConfigurationError(`serveA2a: the name ${JSON.stringify(target.name)} is not 1 to 64 letters, digits, "_" or "-": give a \`name\`.`, {
        name: target.name,
      });
    }
    if (names.has(target.name)) {
      throw new ConfigurationError(`serveA2a: two served agents or chats are named "${target.name}": give one a \`name\`.`, { name: target.name });
    }
    names.add(target.name);
  }
  return targets;
}
