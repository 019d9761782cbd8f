import type { AgentCard } from '@a2a-js/sdk';
import type { A2aTarget } from './servedA2aTargets.js';

/**
 * The Agent Card of a served target at `baseUrl` (`http://host:port/a2a/<name>/`):
 * its name, description and skills, streaming, and one JSON-RPC interface at
 * the base URL for A2A 1.0 and one for 0.3 (served through the SDK's
 * compatibility layer).
 */
export function agentCardOf(target: A2aTarget, baseUrl: string, version: string): AgentCard {
  const jsonRpc = (protocolVersion: string) => ({ url: baseUrl, protocolBinding: 'JSONRPC', tenant: '', protocolVersion });
  return {
    name: target.name,
    description: target.description,
    supportedInterfaces: [jsonRpc('1.0'), jsonRpc('0.3')],
    provider: undefined,
    version,
    capabilities: { streaming: true, pushNotifications: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain', 'application/json'],
    defaultOutputModes: ['text/plain', 'application/json'],
    skills: target.skills.map((skill) => ({
      id: skill.id,
      name: skill.name,
      description: skill.description,
      tags: [target.kind === 'chat' ? 'group-chat-member' : 'agent'],
      examples: [],
      inputModes: [],
      outputModes: [],
      securityRequirements: [],
    })),
    signatures: [],
  };
}
