import type { ChatWaiting } from '@agentchart/actors';

/**
 * What a chat waits for, as its `agentchart.waiting` event says (an in-doubt
 * tool call included), with the wait's number in the chat (`sequence`: 1, 2, …):
 * a command answers the wait it names, and no other.
 */
export type DurableWaiting = (ChatWaiting | { kind: 'in-doubt'; id: string; toolName: string; arguments: unknown }) & { sequence: number };
