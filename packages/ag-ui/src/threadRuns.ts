import { type BaseEvent, EventType, type RunAgentInput } from '@ag-ui/core';
import type { RunStore } from '@agentchart/core';
import { AgUiError } from './agUiError.js';
import { convertHistory } from './inputMessages.js';
import { type WaitAnswer, readAnswers, sessionOfInterrupt } from './interrupts.js';
import { type FrontendResults, frontendTools } from './frontendTools.js';
import { type ServedRun, servedAgentRun, servedChatRun } from './servedRun.js';
import type { ServedTarget } from './servedTargets.js';
import { type EventSink, ThreadSession } from './threadSession.js';

/** Where runs are kept, when they are: the store and the lease they are taken under. */
export interface StoreSettings {
  store: RunStore;
  owner?: string;
  leaseMs?: number;
}

/**
 * The threads of one server: the session each waiting thread is in, and
 * which threads a request is being answered on (one at a time per thread).
 */
export class ThreadRuns {
  readonly #waiting = new Map<string, ThreadSession>();
  readonly #busy = new Set<string>();
  readonly #live = new Set<ThreadSession>();

  constructor(readonly storeSettings: StoreSettings | undefined) {}

  /**
   * Answers one `RunAgentInput` on `sink`: a resume continues the thread's
   * waiting run (from the store when this process has none), any other input
   * starts a run. A refused input ends the stream with `RUN_ERROR`.
   */
  async answer(target: ServedTarget, input: RunAgentInput, sink: EventSink, onSession: (session: ThreadSession) => void): Promise<void> {
    const key = `${target.name}/${input.threadId}`;
    if (this.#busy.has(key)) {
      return refuse(
        sink,
        input,
        new AgUiError('AG_UI_THREAD_BUSY', `Thread "${input.threadId}" is answering another input: wait for its stream to end.`),
      );
    }
    this.#busy.add(key);
    try {
      const resume = input.resume ?? [];
      let session = this.#waiting.get(key);
      if (resume.length > 0 && (session === undefined || session.done)) session = await this.#fromStore(target, input);
      let answers: WaitAnswer[] = [];
      if (session !== undefined && !session.done) {
        const history = convertHistory(input.messages);
        const people = session.waits();
        if (resume.length === 0 && people.length > 0) {
          throw new AgUiError(
            'AG_UI_INTERRUPT_PENDING',
            `Thread "${input.threadId}" waits for ${people.length} interrupt(s): answer them in \`resume\` before sending anything else.`,
            { threadId: input.threadId },
          );
        }
        const tools = session.frontendResults(history.messages);
        if (tools.unanswered.length > 0) {
          throw new AgUiError(
            'AG_UI_INTERRUPT_PENDING',
            `Thread "${input.threadId}" waits for the results of frontend tool calls ${tools.unanswered.join(', ')}: add a tool message for each.`,
            { threadId: input.threadId, toolCallIds: tools.unanswered },
          );
        }
        answers = [...tools.answers, ...readAnswers(session.id, people, resume)];
        session.adoptClientIds(history.ids, history.messages);
      } else if (resume.length > 0) {
        throw new AgUiError(
          'AG_UI_NO_PENDING_INTERRUPT',
          `Thread "${input.threadId}" of "${target.name}" is not waiting for anything: send an input without \`resume\` to start a run.`,
          { threadId: input.threadId, interruptIds: resume.map((entry) => entry.interruptId) },
        );
      } else session = this.#start(target, input);
      onSession(session);
      this.#live.add(session);
      const end = await session.attach(sink, input.threadId, input.runId, answers);
      if (end === 'waiting') this.#waiting.set(key, session);
      else {
        this.#waiting.delete(key);
        this.#live.delete(session);
      }
    } catch (error) {
      refuse(sink, input, error);
    } finally {
      this.#busy.delete(key);
    }
  }

  /** Aborts every run this process holds that is not kept in a store (a stored one stays resumable). */
  close(): void {
    if (this.storeSettings !== undefined) return;
    for (const session of this.#live) if (!session.done) session.abort();
    this.#live.clear();
    this.#waiting.clear();
  }

  #start(target: ServedTarget, input: RunAgentInput): ThreadSession {
    const history = convertHistory(input.messages);
    if (history.messages.length === 0)
      throw new AgUiError('AG_UI_INPUT_INVALID', 'The input has no messages: send at least the user message that starts the run.');
    const state = seedState(input.state);
    const sessionId = `${input.threadId}/${input.runId}`;
    const stored = this.storeSettings;
    const results: FrontendResults = new Map();
    const tools = target.takesFrontendTools ? frontendTools(input.tools, results) : [];
    let run: ServedRun;
    if (target.kind === 'agent') {
      run = servedAgentRun(
        target.build(tools).run(history.messages, {
          ...(state === undefined ? {} : { state }),
          ...(stored === undefined ? {} : { ...stored, runId: sessionId }),
        }),
      );
    } else {
      run = servedChatRun(
        target.build(tools).run(history.messages, {
          chatId: sessionId,
          unknownSpeakers: 'context',
          ...(state === undefined ? {} : { sharedState: state }),
          ...(stored === undefined ? {} : stored),
        }),
      );
    }
    return new ThreadSession(sessionId, run, history, { names: new Set(tools.map((tool) => tool.name)), results });
  }

  /** The thread's waiting run from the store, named by the interrupt the resume answers (after a restart). */
  async #fromStore(target: ServedTarget, input: RunAgentInput): Promise<ThreadSession | undefined> {
    const stored = this.storeSettings;
    const first = input.resume?.[0];
    if (stored === undefined || first === undefined) return undefined;
    const sessionId = sessionOfInterrupt(first.interruptId);
    if (sessionId === undefined || !sessionId.startsWith(`${input.threadId}/`)) return undefined;
    const found = await stored.store.loadRun(sessionId);
    const results: FrontendResults = new Map();
    const tools = target.takesFrontendTools ? frontendTools(input.tools, results) : [];
    if (found === undefined || found.status !== 'waiting') return undefined;
    let run: ServedRun;
    if (target.kind === 'agent') {
      const agent = target.build(tools);
      if (found.name !== agent.name) return undefined;
      run = servedAgentRun(agent.resume(sessionId, stored));
    } else {
      const chat = target.build(tools);
      if (found.name !== chat.name) return undefined;
      run = servedChatRun(chat.resume(sessionId, stored));
    }
    const session = new ThreadSession(sessionId, run, undefined, { names: new Set(tools.map((tool) => tool.name)), results });
    await session.loaded();
    return session;
  }
}

function seedState(state: unknown): Record<string, unknown> | undefined {
  if (state === undefined || state === null) return undefined;
  if (typeof state !== 'object' || Array.isArray(state)) {
    throw new AgUiError(
      'AG_UI_INPUT_INVALID',
      `The input's state is ${Array.isArray(state) ? 'an array' : typeof state}: send a JSON object (or none).`,
    );
  }
  return Object.keys(state).length === 0 ? undefined : (state as Record<string, unknown>);
}

function refuse(sink: EventSink, input: RunAgentInput, error: unknown): void {
  const code = error instanceof AgUiError ? error.code : ((error as { code?: unknown })?.code as string | undefined);
  sink.send({ type: EventType.RUN_STARTED, threadId: input.threadId, runId: input.runId } as BaseEvent);
  sink.send({
    type: EventType.RUN_ERROR,
    message: error instanceof Error ? error.message : String(error),
    ...(typeof code === 'string' ? { code } : {}),
  } as BaseEvent);
  sink.end();
}
