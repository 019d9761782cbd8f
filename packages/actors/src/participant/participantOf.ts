import { ConfigurationError } from '@agentchart/core';
import type { AgentConfig } from '../agent/createAgent.js';
import type { ToolSourceAgent } from '../agent/tools/toolSourceAgent.js';
import type { Participant } from '../groupChat/groupChatTypes.js';
import { nestedChatProtocol } from '../groupChat/nestedChatProtocol.js';
import { customParticipantProtocol } from './customParticipantProtocol.js';
import { PARTICIPANT_PROTOCOL, type ParticipantProtocol, providesParticipantProtocol } from './participantProtocol.js';

/**
 * The participant protocol of anything a chat takes as a participant: the one
 * an agent or a group chat gives (`PARTICIPANT_PROTOCOL`), or one adapted from
 * the shape of a person (`{ kind: 'human' }`), a group chat written by hand
 * (`{ kind: 'group-chat', run, resume? }`) or a `CustomParticipant`.
 * Throws `ConfigurationError` for anything else.
 *
 * @example
 * participantProtocol(humanAgent({ name: 'alice' })); // { kind: 'human', name: 'alice', description: undefined }
 */
export function participantProtocol(participant: Participant): ParticipantProtocol {
  if (typeof participant === 'object' && participant !== null) {
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
 * The configuration of an agent made by `createAgent` (what a chat or a
 * stored run builds its runs from). Throws `ConfigurationError` for anything
 * else, and for an agent whose tool sources are not loaded yet.
 *
 * @example
 * const config = agentConfigOf(createAgent({ name: 'a', model }));
 */
export function agentConfigOf(agent: Participant): AgentConfig {
  const protocol = participantProtocol(agent);
  if (protocol.kind !== 'agent')
    throw new ConfigurationError(`Expected an agent made by createAgent(...); "${protocol.name}" is a ${protocol.kind} participant.`, {});
  return protocol.config();
}

/**
 * The tool sources of an agent made by `createAgent({ toolSources })`, or
 * undefined for any other participant.
 *
 * @example
 * const entry = toolSourceAgentOf(agent);
 * if (entry) await entry.load(); // agentConfigOf(agent) now has the sources' tools
 */
export function toolSourceAgentOf(participant: Participant): ToolSourceAgent | undefined {
  const protocol = participantProtocol(participant);
  return protocol.kind === 'agent' ? protocol.toolSources : undefined;
}
