import { ConfigurationError } from '@agentchart/core';
import { internalAgentOf } from '../agent/internalAgent.js';
import type { ToolSourceAgent } from '../agent/tools/agentToolSources.js';
import type { Participant } from './groupChatOptions.js';
import { nestedChatProtocol } from './nestedChatProtocol.js';
import { customParticipantProtocol } from './customParticipantProtocol.js';
import { PARTICIPANT_PROTOCOL, type ParticipantProtocol, providesParticipantProtocol } from '../participant/participantProtocol.js';

/**
 * The participant protocol of anything a chat takes as a participant: an
 * agent made by `createAgent` (from its internals), the one a group chat
 * gives (`PARTICIPANT_PROTOCOL`), or one adapted from
 * the shape of a person (`{ kind: 'human' }`), a group chat written by hand
 * (`{ kind: 'group-chat', run, resume? }`) or a `CustomParticipant`.
 * Throws `ConfigurationError` for anything else.
 *
 * @example
 * participantProtocol(humanAgent({ name: 'alice' })); // { kind: 'human', name: 'alice', description: undefined }
 */
export function participantProtocol(participant: Participant): ParticipantProtocol {
  if (typeof participant === 'object' && participant !== null) {
    const agent = internalAgentOf(participant);
    if (agent !== undefined) return { kind: 'agent', name: agent.name, config: agent.config, toolSources: agent.toolSources };
    if (providesParticipantProtocol(participant)) return participant[PARTICIPANT_PROTOCOL]();
    if ('kind' in participant) {
      if (participant.kind === 'human') return { kind: 'human', name: participant.name, description: participant.description };
      if (participant.kind === 'group-chat') return nestedChatProtocol(participant, undefined);
      if (participant.kind === 'custom') return customParticipantProtocol(participant);
    }
  }
  throw new ConfigurationError(
    'Expected an agent made by createAgent(...), a humanAgent(...), a group chat, or a custom participant ({ kind: "custom", name, takeTurn }).',
    {},
  );
}

/**
 * The tool sources of an agent made by `createAgent({ toolSources })`, or
 * undefined for any other participant.
 *
 * @example
 * const entry = toolSourceAgentOf(agent);
 * if (entry) await entry.load(); // the agent's configuration now has the sources' tools
 */
export function toolSourceAgentOf(participant: Participant): ToolSourceAgent | undefined {
  const protocol = participantProtocol(participant);
  return protocol.kind === 'agent' ? protocol.toolSources : undefined;
}
