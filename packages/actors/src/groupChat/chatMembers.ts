import { type AnyTool, ConfigurationError, DuplicateToolError, defineTool, rules } from '@agentchart/core';
import { z } from 'zod';
import { machineFor } from '../agent/run/agentRun.js';
import { agentRuntime } from '../agent/machine/agentRuntime.js';
import type { AgentRuntime } from '../agent/machine/agentContext.js';
import type { AgentConfig } from '../agent/agentTypes.js';
import { LiveToolSet } from '../agent/tools/liveTools.js';
import { sharedToolRules } from '../agent/toolRules/sharedToolRules.js';
import { normalizeToolMode } from '../agent/machine/toolChoice.js';
import type { ParticipantRoutes } from './analyzeTransitions.js';
import { type AgentTurnSetup, type ChatMember, TERMINATE } from './chatMember.js';
import type { GroupChatMember, MemberOptions } from './groupChatOptions.js';
import { participantProtocol } from './participantOf.js';
import type { AgentProtocol, ParticipantProtocol } from '../participant/participantProtocol.js';
import { PARTICIPANT_NAME_PATTERN, RESERVED_PARTICIPANT_NAMES } from './participantName.js';

/** The tool an agent calls to hand the chat to `to`. */
export function handoffToolName(to: string): string {
  return to === TERMINATE ? 'terminate_chat' : `transfer_to_${to}`;
}

/**
 * Normalizes the `agents` option: resolves each participant's kind, adds its
 * handoff tools to a copy of its agent runtime (they end the turn when called),
 * and checks names. The list's shape is checked before (`GroupChatOptionsSchema`).
 */
export function buildChatMembers(members: readonly GroupChatMember[]): ChatMember[] {
  const options = members.map(toMemberOptions);
  const seen = new Set<string>();
  for (const { agent } of options) {
    if (seen.has(agent.name)) {
      throw new ConfigurationError(`Two participants are named "${agent.name}": participant names must be unique in a chat.`, {
        name: agent.name,
      });
    }
    if (RESERVED_PARTICIPANT_NAMES.includes(agent.name)) {
      throw new ConfigurationError(
        `A participant may not be named "${agent.name}": ${RESERVED_PARTICIPANT_NAMES.join(', ')} are reserved for selection and handoffs.`,
        { name: agent.name },
      );
    }
    seen.add(agent.name);
  }
  const protocols = options.map((option) => participantProtocol(option.agent));
  const descriptions = new Map(options.map((option, index) => [option.agent.name, describe(option, protocols[index] as ParticipantProtocol)]));
  return options.map((option, index) => toChatMember(option, protocols[index] as ParticipantProtocol, descriptions));
}

/** What transition analysis needs from each member. */
export function participantRoutes(members: readonly ChatMember[]): ParticipantRoutes[] {
  return members.map((member) => {
    const targets = [
      ...member.contextConditions.map(({ to }) => ({ to, where: `the context condition of "${member.name}"` })),
      ...[...member.handoffTools.values()].map((to) => ({ to, where: `the handoff tool ${handoffToolName(to)} of "${member.name}"` })),
    ];
    if (!['terminate', 'manager', 'user'].includes(member.afterWork)) {
      targets.push({ to: member.afterWork, where: `afterWork of "${member.name}"` });
    }
    const human = members.find((candidate) => candidate.kind === 'human');
    if (member.afterWork === 'user' && human !== undefined) {
      targets.push({ to: human.name, where: `afterWork 'user' of "${member.name}"` });
    }
    return {
      name: member.name,
      handoffTargets: targets.filter(({ to }) => to !== TERMINATE),
      endsChat: member.afterWork === TERMINATE,
    };
  });
}

function toMemberOptions(member: GroupChatMember): MemberOptions {
  if (typeof member === 'object' && member !== null && 'agent' in member) return member;
  return { agent: member };
}

/** How the `auto` selector and the others know a participant: its `description`, else what its kind says of it. */
function describe(option: MemberOptions, protocol: ParticipantProtocol): string {
  if (option.description !== undefined) return option.description;
  if (protocol.kind === 'agent')
    return (protocol.toolSources === undefined ? protocol.config().instructions : protocol.toolSources.instructions) ?? '';
  return protocol.description ?? DEFAULT_DESCRIPTIONS[protocol.kind];
}

const DEFAULT_DESCRIPTIONS = { human: 'A person.', chat: 'A group chat.', custom: 'A participant.' } as const;

function toChatMember(option: MemberOptions, protocol: ParticipantProtocol, descriptions: ReadonlyMap<string, string>): ChatMember {
  const name = option.agent.name;
  if (typeof name !== 'string' || !PARTICIPANT_NAME_PATTERN.test(name)) {
    throw new ConfigurationError(`Participant name ${JSON.stringify(name)} is invalid: use 1 to 64 letters, digits, "_" or "-".`, { name });
  }
  const handoffs = option.handoffs ?? [];
  const conditions = handoffs.flatMap(({ to, when }) => (when === undefined ? [] : [{ to, when }]));
  const toolHandoffs = handoffs.filter(({ when }) => when === undefined);
  // Most members have neither: they share one empty list and one empty map (an idle chat holds less).
  const base = {
    name,
    description: descriptions.get(name) ?? '',
    contextConditions: conditions.length === 0 ? noConditions : conditions,
    handoffTools: toolHandoffs.length === 0 ? noHandoffTools : new Map(toolHandoffs.map(({ to }) => [handoffToolName(to), to])),
    afterWork: option.afterWork ?? 'manager',
  };
  if (protocol.kind !== 'agent' && toolHandoffs.length > 0) {
    throw new ConfigurationError(
      `"${name}" has handoffs without \`when\`, which are tools for a model; only agents have one. Give them a \`when\` condition, or use afterWork.`,
      { name },
    );
  }
  if (protocol.kind === 'human') return { ...base, kind: protocol.kind };
  if (protocol.kind !== 'agent') return { ...base, kind: protocol.kind, delegate: protocol };
  // An agent with tool sources: the chat loads them when it starts; each turn takes the list as loaded last.
  if (protocol.toolSources !== undefined) return new SourceAgentMember(base, protocol, toolHandoffs, descriptions);
  const config = protocol.config();
  if (toolHandoffs.length > 0) return { ...base, kind: protocol.kind, turn: agentTurnSetup(config, toolHandoffs, descriptions) };
  // Without handoff tools a turn is the agent's own configuration: built on the first turn, shared by every chat.
  return new PlainAgentMember(base, config);
}

/** What every agent member holds, whatever gives its turn setup. */
abstract class AgentMemberFields {
  readonly kind = 'agent' as const;
  readonly name: string;
  readonly description: string;
  readonly contextConditions: ChatMember['contextConditions'];
  readonly handoffTools: ReadonlyMap<string, string>;
  readonly afterWork: string;

  constructor(base: Omit<ChatMember, 'kind'>) {
    this.name = base.name;
    this.description = base.description;
    this.contextConditions = base.contextConditions;
    this.handoffTools = base.handoffTools;
    this.afterWork = base.afterWork;
  }
}

/**
 * An agent member without handoff tools: its turn setup is read from the
 * agent's configuration when first needed and shared by every chat (a class,
 * so each member is a small fixed-shape object and the getter lives once on
 * the prototype).
 */
class PlainAgentMember extends AgentMemberFields {
  readonly #config: AgentConfig;

  constructor(base: Omit<ChatMember, 'kind'>, config: AgentConfig) {
    super(base);
    this.#config = config;
  }

  get turn(): AgentTurnSetup {
    return plainTurnSetup(this.#config);
  }
}

/**
 * An agent member with tool sources: its turn setup is built from the
 * configuration registered when its sources were last loaded (the chat loads
 * them at start and again after each list change, see `chatToolSources`),
 * and kept while that configuration stays the same.
 */
class SourceAgentMember extends AgentMemberFields {
  readonly #agent: AgentProtocol;
  readonly #handoffs: readonly { to: string; description?: string | undefined }[];
  readonly #descriptions: ReadonlyMap<string, string>;
  #setup: { config: AgentConfig; turn: AgentTurnSetup } | undefined;

  constructor(
    base: Omit<ChatMember, 'kind'>,
    agent: AgentProtocol,
    handoffs: readonly { to: string; description?: string | undefined }[],
    descriptions: ReadonlyMap<string, string>,
  ) {
    super(base);
    this.#agent = agent;
    this.#handoffs = handoffs;
    this.#descriptions = descriptions;
  }

  /** Throws the agent's `ConfigurationError` while its sources were never loaded (a chat loads them before its first turn). */
  get turn(): AgentTurnSetup {
    const config = this.#agent.config();
    if (this.#setup?.config !== config) {
      const turn = this.#handoffs.length === 0 ? plainTurnSetup(config) : agentTurnSetup(config, this.#handoffs, this.#descriptions);
      // Its list changes are followed into the turn's agent actor (`followChatToolSources`).
      this.#setup = { config, turn };
    }
    const unusable = this.#agent.toolSources?.loadError;
    return unusable === undefined ? this.#setup.turn : { ...this.#setup.turn, unusable };
  }
}

const noConditions: ChatMember['contextConditions'] = [];
const noHandoffTools: ReadonlyMap<string, string> = new Map();

/** The turn setup of agents that take part without handoff tools, by agent configuration. */
const plainTurnSetups = new WeakMap<AgentConfig, AgentTurnSetup>();

/**
 * An agent's turn setup when the chat adds no handoff tools: a function of its
 * configuration alone (its tool mode and rules were checked by `createAgent`),
 * so it is made once, when first needed, and shared.
 */
function plainTurnSetup(config: AgentConfig): AgentTurnSetup {
  let setup = plainTurnSetups.get(config);
  if (setup === undefined) {
    setup = agentTurnSetup(config, [], new Map());
    plainTurnSetups.set(config, setup);
  }
  return setup;
}

const noArguments = z.object({});

/**
 * The agent with its handoff tools added. Each handoff tool is a terminal
 * tool rule (compiled together with the agent's own rules), so calling it
 * ends the agent's turn once it has run — under the agent's rules, like any tool.
 */
function agentTurnSetup(
  config: AgentConfig,
  handoffs: readonly { to: string; description?: string | undefined }[],
  descriptions: ReadonlyMap<string, string>,
): AgentTurnSetup {
  // Without handoffs, the agent's own tools (not copied: a chat's agent builds this on its first turn).
  const tools = handoffs.length === 0 ? config.tools : withHandoffTools(config.tools, handoffs, descriptions);
  const toolNames = [...tools.keys()];
  const addableNames = [...config.addableTools.keys()];
  const toolRules =
    handoffs.length === 0
      ? config.toolRules
      : sharedToolRules(
          [...(config.toolRules?.rules ?? []), ...handoffs.map(({ to }) => rules.terminal(handoffToolName(to)))],
          [...toolNames, ...addableNames],
          config.toolRules === undefined ? {} : { unnamedTools: config.toolRules.unnamedTools },
        );
  // Without handoffs the configuration itself (its own tools and rules): no copy of it per agent.
  const base = handoffs.length === 0 ? config : { ...config, tools, toolRules };
  const runtime = (mirrorToolRules = false): AgentRuntime =>
    agentRuntime(base, { liveTools: new LiveToolSet(tools.values()), middleware: config.middleware, mirrorToolRules, livesForChat: true });
  return {
    // Read when a turn spawns the agent machine: the same machine for every turn.
    get machine() {
      return machineFor(runtime());
    },
    runtime,
    toolMode: normalizeToolMode(config.toolChoice, toolNames, addableNames),
    // Read when a persisted turn resumes.
    get knownTools() {
      return new Map([...config.addableTools, ...tools]);
    },
  };
}

/** The agent's tools with a handoff tool added for each handoff. */
function withHandoffTools(
  own: ReadonlyMap<string, AnyTool>,
  handoffs: readonly { to: string; description?: string | undefined }[],
  descriptions: ReadonlyMap<string, string>,
): Map<string, AnyTool> {
  const tools = new Map(own);
  for (const { to, description } of handoffs) {
    const tool = defineTool({
      name: handoffToolName(to),
      description: description ?? (to === TERMINATE ? 'End the group chat.' : `Hand the conversation to ${to}. ${descriptions.get(to) ?? ''}`.trim()),
      parameters: noArguments,
      execute: () => (to === TERMINATE ? 'Ending the chat.' : `Handing the conversation to ${to}.`),
    });
    if (tools.has(tool.name)) throw new DuplicateToolError(tool.name);
    tools.set(tool.name, tool);
  }
  return tools;
}
