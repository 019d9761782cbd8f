import type { ChatWaiting, CustomParticipant, ParticipantTurn, ParticipantTurnOptions } from '@agentchart/actors';
import { ConfigurationError, type Message } from '@agentchart/core';
import { z } from 'zod';
import { dataPart, textPart } from './a2aParts.js';
import { CANCEL_GRACE_MS } from './constants.js';
import { A2aRemote, type RemoteReply } from './a2aRemote.js';
import { type ChatContexts, chatContexts } from './chatContexts.js';

/** What `a2aParticipant` takes. */
export interface A2aParticipantOptions {
  /** The participant's name in the chat. */
  name: string;
  /** The remote agent's base URL, with its trailing slash (its card is at `<url>.well-known/agent-card.json`). */
  url: string;
  /** How the chat's selector and the others know it (default: the card's description is not fetched; a sentence naming the URL). */
  description?: string;
}

/** A turn's state, persisted with the chat while the remote task waits. */
const TurnStateSchema = z.object({
  contextId: z.string(),
  taskId: z.string(),
  seen: z.number().int().nonnegative(),
  question: z.string(),
  data: z.array(z.record(z.string(), z.unknown())),
});
type TurnState = z.infer<typeof TurnStateSchema>;

/**
 * A remote A2A agent as a participant of a group chat (a custom participant).
 * Each chat run talks to it in one A2A context; on its turn it sends the task
 * and every message since its previous turn (one text part each, `name: text`),
 * and the remote task's answer is the turn's message. A remote task that
 * waits for input makes the chat wait: for approvals when its status carries
 * `{ "pending": [...] }` (`run.approve` / `run.reject` answer, one data part
 * per decision, once every call is decided), else for a person's turn
 * (`run.say`, sent as a text part). A failed or canceled remote task fails
 * the turn with an `A2aError`; aborting the chat cancels the remote task.
 *
 * @example
 * const chat = createGroupChat({
 *   agents: [planner, a2aParticipant({ name: 'booking', url: 'http://127.0.0.1:4000/a2a/booking/' })],
 *   speakerSelection: 'round_robin',
 *   maxRounds: 4,
 * });
 */
export function a2aParticipant(options: A2aParticipantOptions): CustomParticipant {
  if (typeof options?.name !== 'string' || typeof options.url !== 'string') {
    throw new ConfigurationError("a2aParticipant({ name, url }) takes the participant name and the remote agent's base URL.");
  }
  const remote = new A2aRemote(checkedUrl(options.url, `a2aParticipant({ name: ${JSON.stringify(options.name)} })`));
  const contexts = chatContexts();
  return {
    kind: 'custom',
    name: options.name,
    description: options.description ?? `A remote A2A agent at ${options.url}.`,
    stateSchema: TurnStateSchema,
    takeTurn: (view, turnOptions) => remoteTurn(remote, options.name, contexts, view, undefined, turnOptions),
    resumeTurn: (state, turnOptions) => remoteTurn(remote, options.name, contexts, [], state as TurnState, turnOptions),
  };
}

/** One turn: a message to the remote task, and what it answers, through as many waits as it has. */
function remoteTurn(
  remote: A2aRemote,
  name: string,
  contexts: ChatContexts,
  view: readonly Message[],
  resumed: TurnState | undefined,
  { signal, checkpoint }: ParticipantTurnOptions,
): ParticipantTurn {
  const context = resumed === undefined ? contexts.of(view) : contexts.restore(view, resumed.contextId, resumed.seen);
  let waitingFor: TurnState | undefined = resumed;
  const decisions = new Map<string, Record<string, unknown>>();
  let answer: (parts: ReturnType<typeof textPart>[]) => void = () => {};
  let stopWaiting: (error: Error) => void = () => {};
  let taskId: string | undefined = resumed?.taskId;
  /** After persist(), the remote task belongs to the copy that resumes it: an abort here does not cancel it. */
  let persisted = false;

  const next = (): Promise<ReturnType<typeof textPart>[]> =>
    new Promise((resolve, reject) => {
      answer = resolve;
      stopWaiting = reject;
      if (signal.aborted) reject(new Error('The chat was aborted.'));
    });
  signal.addEventListener(
    'abort',
    () => {
      stopWaiting(new Error('The chat was aborted.'));
      if (waitingFor !== undefined && !persisted) void remote.cancel(waitingFor.taskId);
    },
    { once: true },
  );

  const reply = (async () => {
    let reply: RemoteReply;
    if (resumed === undefined) {
      const parts = context
        .unseen(view)
        .filter((message) => !(message.role === 'assistant' && message.name === name))
        .map((message) => textPart('name' in message && message.name !== undefined ? `${message.name}: ${message.content}` : message.content));
      reply = await send(parts.length > 0 ? parts : [textPart('(your turn)')]);
    } else {
      reply = await send(await next());
    }
    while (reply.kind === 'input-required') {
      waitingFor = { contextId: reply.contextId, taskId: reply.taskId, seen: context.seen, question: reply.question, data: reply.data };
      decisions.clear();
      checkpoint();
      const parts = await next();
      waitingFor = undefined;
      reply = await send(parts);
    }
    return reply.text;
  })();

  /**
   * Sends one message and follows its task. An abort cancels the remote task
   * (once its id is known, which the stream's first event tells), then stops
   * reading; a remote agent that never names its task is given a moment.
   */
  async function send(parts: ReturnType<typeof textPart>[]): Promise<RemoteReply> {
    if (signal.aborted) throw new Error('The chat was aborted.');
    const reading = new AbortController();
    let cancelWhenKnown = false;
    const cancel = (id: string) => void remote.cancel(id).finally(() => reading.abort());
    const onAbort = () => {
      if (taskId !== undefined) return cancel(taskId);
      cancelWhenKnown = true;
      setTimeout(() => reading.abort(), CANCEL_GRACE_MS).unref();
    };
    signal.addEventListener('abort', onAbort, { once: true });
    try {
      const reply = await remote.send(parts, { contextId: context.contextId, ...(taskId === undefined ? {} : { taskId }) }, reading.signal, (id) => {
        taskId = id;
        if (cancelWhenKnown) cancel(id);
      });
      if (signal.aborted) throw new Error('The chat was aborted.');
      context.contextId = reply.contextId;
      taskId = reply.kind === 'answer' ? undefined : reply.taskId;
      return reply;
    } finally {
      signal.removeEventListener('abort', onAbort);
    }
  }

  const pendingOf = (state: TurnState) => {
    const pending = state.data.find((value) => Array.isArray(value.pending))?.pending as
      | { callId?: unknown; toolName?: unknown; arguments?: unknown }[]
      | undefined;
    return (pending ?? []).flatMap((call) =>
      typeof call.callId === 'string' ? [{ id: call.callId, toolName: String(call.toolName), arguments: call.arguments, step: 0 }] : [],
    );
  };
  const decide = (id: string, decision: Record<string, unknown>) => {
    const state = waitingFor;
    const pending = state === undefined ? [] : pendingOf(state);
    if (!pending.some((call) => call.id === id)) throw new Error(`The remote agent "${name}" waits for no call "${id}".`);
    decisions.set(id, decision);
    if (pending.every((call) => decisions.has(call.id))) answer([...decisions.values()].map((value) => dataPart(value)));
  };

  return {
    reply,
    waiting: (): ChatWaiting | undefined => {
      if (waitingFor === undefined) return undefined;
      const requests = pendingOf(waitingFor).filter((call) => !decisions.has(call.id));
      if (requests.length > 0) return { kind: 'approval', speaker: name, requests };
      const speaker = waitingFor.data.find((value) => typeof value.speaker === 'string')?.speaker as string | undefined;
      return { kind: 'human', speaker: speaker ?? name };
    },
    say: (text) => {
      if (waitingFor === undefined) throw new Error(`The remote agent "${name}" is not waiting for input.`);
      answer([textPart(text)]);
    },
    approve: (id) => decide(id, { approve: id }),
    reject: (id, reason) => decide(id, reason === undefined ? { reject: id } : { reject: id, reason }),
    persist: () => {
      persisted = true;
      return waitingFor ?? { contextId: context.contextId, taskId: taskId ?? '', seen: context.seen, question: '', data: [] };
    },
    partial: () => (waitingFor === undefined ? '' : waitingFor.question),
  };
}

function checkedUrl(url: string, label: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw new ConfigurationError(`${label}: \`url\` must be an absolute http(s) URL, the remote agent's base URL.`, { url });
  }
  if (!['http:', 'https:'].includes(parsed.protocol)) throw new ConfigurationError(`${label}: \`url\` must be an http(s) URL.`, { url });
  return url.endsWith('/') ? url : `${url}/`;
}
