import { ConfigurationError, type Message, MessageSchema } from '@agentchart/core';

/**
 * The messages a run starts from: a text becomes one user message; a list is
 * checked message by message and copied. `caller` names the call in errors.
 *
 * @example
 * runInputMessages('Hi', 'agent.run(input)') // [{ role: 'user', content: 'Hi' }]
 */
export function runInputMessages(input: string | readonly Message[], caller: string): Message[] {
  if (typeof input === 'string') return [{ role: 'user', content: input }];
  if (!Array.isArray(input)) throw new ConfigurationError(`${caller} takes a string or an array of messages.`);
  input.forEach((message, index) => assertMessage(message, index, caller));
  return structuredClone([...input]);
}

/** Throws a ConfigurationError naming the message and what is wrong with it, unless it is a valid Message. */
function assertMessage(message: unknown, index: number, caller: string): void {
  const parsed = MessageSchema.safeParse(message);
  if (parsed.success) return;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.') || '(message)'}: ${issue.message}`);
  throw new ConfigurationError(
    `${caller}: message ${index} is not a valid message (${problems.join('; ')}). ` +
      "Build messages with msg.user('...'), msg.assistant('...'), msg.system('...') or msg.tool(...).",
    { index, issues: problems },
  );
}
