import { createHash } from 'node:crypto';
import { type BaseEvent, EventType, type Message as AgUiMessage, type RunFinishedOutcome, type ToolCall as AgUiToolCall } from '@ag-ui/core';
import type { ChatEvent } from '@agentchart/actors';
import type { Message, RunEvent } from '@agentchart/core';
import type { Subscription } from 'rxjs';
import { AG_UI_CUSTOM_EVENTS, LOAD_POLL_MS } from './constants.js';
import { type RunWait, type WaitAnswer, toInterrupt } from './interrupts.js';
import type { ServedOutcome, ServedRun } from './servedRun.js';
import { stateDelta } from './stateDelta.js';
import type { FrontendResults } from './frontendTools.js';

/** The frontend tools of a run: their names, and the results the client sent, by call id. */
export interface FrontendTools {
  names: ReadonlySet<string>;
  results: FrontendResults;
}

/** Where the AG-UI events of the current request go. */
export interface EventSink {
  send(event: BaseEvent): void;
  end(): void;
}

/** What a session reports when one AG-UI run of it ends. */
export type RunEnd = 'waiting' | 'done';

/**
 * One agentchart run or chat served on a thread, across the AG-UI runs that
 * carry it: the first input starts it, each resume continues it. It maps the
 * agentchart events onto the AG-UI stream of the request attached now (text
 * as `TEXT_MESSAGE_*`, tool calls as `TOOL_CALL_*` and `TOOL_CALL_RESULT`,
 * turns as steps, state changes as `STATE_DELTA`, refusals and speaker
 * choices as `CUSTOM`), keeps the transcript as AG-UI messages with stable
 * ids, and ends each AG-UI run when the run waits for a person (an
 * interrupt) or ends.
 */
export class ThreadSession {
  readonly #run: ServedRun;
  readonly #messages: AgUiMessage[] = [];
  readonly #idPrefix: string;
  readonly #subscription: Subscription;
  #knownIds: readonly string[];
  #started = false;
  #sink: { sink: EventSink; threadId: string; runId: string; ended: (end: RunEnd) => void } | undefined;
  #openText: { id: string; speaker: string | undefined; text: string } | undefined;
  #openStep: string | undefined;
  #round = 0;
  /**
   * Where the turn a chat restored from a store waits in began: its messages
   * so far are in the speaking agent's run, not yet in the chat's transcript,
   * so they are shown as the client sent them until the turn ends.
   */
  #turnStart: number | undefined;
  #checkScheduled = false;
  #outcome: ServedOutcome | undefined;

  /**
   * @param history the transcript the run starts from, with the AG-UI id of each message
   * (a resumed chat rebuilds it from its first event).
   */
  readonly #frontend: FrontendTools;

  constructor(
    readonly id: string,
    run: ServedRun,
    history: { messages: readonly Message[]; ids: readonly string[] } | undefined,
    frontend: FrontendTools = { names: new Set(), results: new Map() },
  ) {
    this.#run = run;
    this.#frontend = frontend;
    this.#idPrefix = createHash('sha256').update(id).digest('hex').slice(0, 8);
    this.#knownIds = history?.ids ?? [];
    if (history !== undefined) {
      for (const message of history.messages) this.#messages.push(this.#toAgUi(message, this.#messages.length, undefined));
      this.#started = true;
    }
    this.#subscription = run.events$.subscribe({ next: (event) => this.#onEvent(event) });
    void run.outcome.then((outcome) => {
      this.#outcome = outcome;
      this.#finish();
    });
  }

  /**
   * Resolves once a run loaded from a store is under way: it reported its
   * first event or shows its waits (a resumed agent run waiting for approval
   * reports nothing until decided), or it ended. An agent run resumed so does
   * not report its transcript: it is shown as the resuming client sent it.
   */
  async loaded(): Promise<void> {
    let evented = false;
    const subscription = this.#run.events$.subscribe({
      next: () => {
        evented = true;
      },
    });
    try {
      while (!evented && !this.#started && this.#outcome === undefined && this.#run.waits().length === 0) {
        await new Promise((resolve) => setTimeout(resolve, LOAD_POLL_MS));
      }
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      subscription.unsubscribe();
    }
    if (!this.#started && this.#run.kind === 'agent') {
      this.#started = true;
      this.#turnStart = 0;
    }
  }

  /** Whether the run ended (nothing more can be attached). */
  get done(): boolean {
    return this.#outcome !== undefined;
  }

  /** What the run waits for a person for now (its interrupts). */
  waits(): RunWait[] {
    return this.#allWaits().filter((wait) => !this.#isFrontend(wait));
  }

  /**
   * The results the client sent in `messages` (tool messages answering the
   * frontend tool calls the run waits on), and the calls still unanswered.
   */
  frontendResults(messages: readonly Message[]): { answers: WaitAnswer[]; unanswered: string[] } {
    const answers: WaitAnswer[] = [];
    const unanswered: string[] = [];
    for (const wait of this.#allWaits()) {
      if (wait.kind !== 'approval' || !this.#isFrontend(wait)) continue;
      const id = this.toolCallId(wait.callId);
      const result = messages.find((message) => message.role === 'tool' && message.toolCallId === id);
      if (result === undefined) unanswered.push(id);
      else answers.push({ kind: 'result', callId: wait.callId, content: result.content });
    }
    return { answers, unanswered };
  }

  #allWaits(): RunWait[] {
    return this.#outcome === undefined ? this.#run.waits() : [];
  }

  #isFrontend(wait: RunWait): boolean {
    return wait.kind === 'approval' && this.#frontend.names.has(wait.toolName);
  }

  /** The AG-UI id of an agentchart call of the current turn. */
  toolCallId = (callId: string): string => (this.#run.kind === 'chat' ? `r${this.#round}.${callId}` : callId);

  /**
   * Streams the run to `sink` as one AG-UI run: `RUN_STARTED`, the state,
   * then everything the run does until it waits or ends. The answers (of a
   * resume) are given once attached, so their effects are in this stream.
   */
  attach(sink: EventSink, threadId: string, runId: string, answers: readonly WaitAnswer[] = []): Promise<RunEnd> {
    return new Promise<RunEnd>((ended) => {
      this.#sink = { sink, threadId, runId, ended };
      sink.send({ type: EventType.RUN_STARTED, threadId, runId } as BaseEvent);
      sink.send({ type: EventType.STATE_SNAPSHOT, snapshot: this.#run.state() } as BaseEvent);
      if (this.#outcome !== undefined) return this.#finish();
      if (this.#openStep !== undefined) sink.send({ type: EventType.STEP_STARTED, stepName: this.#openStep } as BaseEvent);
      try {
        for (const answer of answers) this.#give(answer);
      } catch (error) {
        this.#closeOpen();
        this.#send({ type: EventType.RUN_ERROR, message: error instanceof Error ? error.message : String(error), code: 'AG_UI_RESUME_INVALID' });
        this.#sink = undefined;
        sink.end();
        ended('waiting');
        return;
      }
      this.#scheduleCheck();
    });
  }

  /** Stops the run (the client went away, or the server closes). */
  abort(): void {
    this.#run.abort();
  }

  /** Forgets the request attached now (it was cut off): its AG-UI run is over for the server too. */
  detach(): void {
    const current = this.#sink;
    this.#sink = undefined;
    current?.ended('done');
  }

  #give(answer: WaitAnswer): void {
    if (answer.kind === 'result') {
      this.#frontend.results.set(answer.callId, answer.content);
      this.#run.approve(answer.callId);
    } else if (answer.kind === 'approve') this.#run.approve(answer.callId);
    else if (answer.kind === 'reject') this.#run.reject(answer.callId, answer.reason);
    else if (answer.kind === 'say') this.#run.say(answer.speaker, answer.text);
    else if (answer.kind === 'select') this.#run.select(answer.speaker);
    else this.#run.abort();
  }

  #send(event: Record<string, unknown>): void {
    this.#sink?.sink.send(event as unknown as BaseEvent);
  }

  #onEvent(event: RunEvent | ChatEvent): void {
    if (this.#run.kind === 'chat') this.#onChatEvent(event as ChatEvent);
    else this.#onAgentEvent(event as RunEvent, undefined);
    this.#scheduleCheck();
  }

  #onChatEvent(event: ChatEvent): void {
    switch (event.type) {
      case 'chat.started':
        if (!this.#started) this.#restore(event.messages);
        break;
      case 'speaker.selected':
        this.#round = event.round;
        this.#send({
          type: EventType.CUSTOM,
          name: AG_UI_CUSTOM_EVENTS.speakerSelected,
          value: { speaker: event.speaker, round: event.round, by: event.by, eligible: event.eligible },
        });
        this.#openStep = event.speaker;
        this.#send({ type: EventType.STEP_STARTED, stepName: event.speaker });
        break;
      case 'handoff':
        this.#send({ type: EventType.CUSTOM, name: AG_UI_CUSTOM_EVENTS.handoff, value: { from: event.from, to: event.to, via: event.via } });
        break;
      case 'state.changed':
        this.#send({ type: EventType.STATE_DELTA, delta: stateDelta(event.change) });
        break;
      case 'agent.event':
        this.#onAgentEvent(event.event, event.speaker);
        break;
      case 'turn.finished':
        this.#closeText();
        for (const message of event.messages) if (message.role === 'user') this.#userMessage(message.content, message.name ?? event.speaker);
        this.#settleRestoredTurn(event.messages);
        if (this.#openStep !== undefined) this.#send({ type: EventType.STEP_FINISHED, stepName: this.#openStep });
        this.#openStep = undefined;
        break;
      default:
        break;
    }
  }

  /** A person's turn (or a user message of a turn) as a streamed user message. */
  #userMessage(text: string, speaker: string): void {
    const id = this.#nextId();
    this.#send({ type: EventType.TEXT_MESSAGE_START, messageId: id, role: 'user', name: speaker });
    if (text !== '') this.#send({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta: text });
    this.#send({ type: EventType.TEXT_MESSAGE_END, messageId: id });
    this.#messages.push({ id, role: 'user', name: speaker, content: text });
  }

  #onAgentEvent(event: RunEvent, speaker: string | undefined): void {
    switch (event.type) {
      case 'run.started':
        if (!this.#started) this.#restore(event.input);
        break;
      case 'text.delta': {
        if (event.text === '') break;
        if (this.#openText === undefined) {
          this.#openText = { id: this.#nextId(), speaker: speaker ?? event.agent, text: '' };
          this.#send({ type: EventType.TEXT_MESSAGE_START, messageId: this.#openText.id, role: 'assistant', name: this.#openText.speaker });
        }
        this.#openText.text += event.text;
        this.#send({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: this.#openText.id, delta: event.text });
        break;
      }
      case 'message':
        this.#onMessage(event.message, speaker ?? event.agent);
        break;
      case 'tool.refused':
        this.#send({
          type: EventType.CUSTOM,
          name: AG_UI_CUSTOM_EVENTS.toolRefused,
          value: {
            toolCallId: this.toolCallId(event.call.id),
            toolName: event.call.name,
            rule: event.rule,
            reason: event.reason,
            allowedTools: event.allowedTools,
          },
        });
        break;
      case 'approval.decided':
        if (this.#frontend.names.has(event.toolName)) break; // the client answered its own tool
        this.#send({
          type: EventType.CUSTOM,
          name: AG_UI_CUSTOM_EVENTS.approvalDecided,
          value: {
            toolCallId: this.toolCallId(event.id),
            toolName: event.toolName,
            approved: event.approved,
            ...(event.reason === undefined ? {} : { reason: event.reason }),
          },
        });
        break;
      case 'state.changed':
        if (this.#run.kind === 'agent') this.#send({ type: EventType.STATE_DELTA, delta: stateDelta(event) });
        break;
      default:
        break;
    }
  }

  #onMessage(message: Message, speaker: string): void {
    if (message.role === 'assistant') {
      const id = this.#openText?.id ?? this.#nextId();
      if (this.#openText !== undefined) this.#closeText();
      else if (message.content !== '') {
        this.#send({ type: EventType.TEXT_MESSAGE_START, messageId: id, role: 'assistant', name: speaker });
        this.#send({ type: EventType.TEXT_MESSAGE_CONTENT, messageId: id, delta: message.content });
        this.#send({ type: EventType.TEXT_MESSAGE_END, messageId: id });
      }
      const converted = this.#toAgUi(message, this.#messages.length, id);
      for (const call of (converted.role === 'assistant' ? converted.toolCalls : undefined) ?? []) {
        this.#send({ type: EventType.TOOL_CALL_START, toolCallId: call.id, toolCallName: call.function.name, parentMessageId: id });
        if (call.function.arguments !== '') this.#send({ type: EventType.TOOL_CALL_ARGS, toolCallId: call.id, delta: call.function.arguments });
        this.#send({ type: EventType.TOOL_CALL_END, toolCallId: call.id });
      }
      this.#messages.push(converted);
    } else if (message.role === 'tool') {
      const converted = this.#toAgUi(message, this.#messages.length, undefined);
      if (converted.role !== 'tool') return;
      this.#send({
        type: EventType.TOOL_CALL_RESULT,
        messageId: converted.id,
        toolCallId: converted.toolCallId,
        content: converted.content,
        role: 'tool',
      });
      this.#messages.push(converted);
    }
  }

  /** The transcript a run resumed from a store starts with, its ids matched to the client's where they agree. */
  #restore(messages: readonly Message[]): void {
    this.#started = true;
    const turns = this.#run.transcript()?.turns ?? [];
    // A chat resumed from a store is in the middle of the turn it waits in.
    const wait = this.#run.waits()[0];
    const speaker = wait?.kind === 'approval' ? wait.speaker : wait?.kind === 'turn' ? wait.speaker : undefined;
    if (this.#run.kind === 'chat' && speaker !== undefined) {
      this.#round = turns.length + 1;
      this.#openStep = speaker;
      this.#turnStart = messages.length;
    }
    for (const [index, message] of messages.entries()) {
      const turn = turns.findIndex((candidate) => index >= candidate.start && index < candidate.end);
      this.#messages.push(this.#toAgUi(message, index, undefined, turn === -1 ? undefined : turn + 1));
    }
  }

  /** Takes the client's ids for the messages it already has (same role and text, in order). */
  adoptClientIds(ids: readonly string[], messages: readonly Message[]): void {
    this.#knownIds = ids;
    let index = 0;
    for (; index < messages.length; index++) {
      const mine = this.#messages[index];
      const message = messages[index] as Message;
      if (mine === undefined || mine.role !== message.role || (mine.content ?? '') !== message.content) break;
      mine.id = ids[index] ?? mine.id;
    }
    if (this.#turnStart === undefined || index !== this.#messages.length || this.#messages.length !== this.#turnStart) return;
    // The restored turn's messages so far, as the client has them, until the turn's own arrive with its end.
    for (; index < messages.length; index++) this.#messages.push(this.#toAgUi(messages[index] as Message, index, ids[index], undefined, false));
  }

  /** Replaces a restored turn's messages by the turn's own, keeping the ids the client knows them by. */
  #settleRestoredTurn(turnMessages: readonly Message[]): void {
    const start = this.#turnStart;
    if (start === undefined) return;
    this.#turnStart = undefined;
    const ids = this.#messages.slice(start).map((message) => message.id);
    const settled = turnMessages.map((message, offset) => this.#toAgUi(message, start + offset, ids[offset], this.#round));
    this.#messages.splice(start, this.#messages.length - start, ...settled);
  }

  #nextId(): string {
    return this.#idAt(this.#messages.length);
  }

  #idAt(index: number): string {
    return this.#knownIds[index] ?? `${this.#idPrefix}-${index}`;
  }

  #toAgUi(message: Message, index: number, id: string | undefined, round?: number, mapCallIds = true): AgUiMessage {
    const messageId = id ?? this.#idAt(index);
    const callId = (call: string) =>
      !mapCallIds ? call : this.#run.kind === 'chat' && round !== undefined ? `r${round}.${call}` : this.toolCallId(call);
    switch (message.role) {
      case 'system':
        return { id: messageId, role: 'system', content: message.content };
      case 'user':
        return { id: messageId, role: 'user', content: message.content, ...(message.name === undefined ? {} : { name: message.name }) };
      case 'assistant': {
        const toolCalls: AgUiToolCall[] = (message.toolCalls ?? []).map((call) => ({
          id: callId(call.id),
          type: 'function',
          function: { name: call.name, arguments: call.arguments === undefined ? (call.malformedArguments ?? '') : JSON.stringify(call.arguments) },
        }));
        return {
          id: messageId,
          role: 'assistant',
          content: message.content,
          ...(message.name === undefined ? {} : { name: message.name }),
          ...(toolCalls.length === 0 ? {} : { toolCalls }),
        };
      }
      case 'tool':
        return {
          id: messageId,
          role: 'tool',
          toolCallId: callId(message.toolCallId),
          content: message.content,
          ...(message.isError ? { error: message.content } : {}),
        };
    }
  }

  #closeText(): void {
    if (this.#openText === undefined) return;
    this.#send({ type: EventType.TEXT_MESSAGE_END, messageId: this.#openText.id });
    this.#openText = undefined;
  }

  /** After the run settles from an event: when it waits for a person, the AG-UI run ends with the interrupts. */
  #scheduleCheck(): void {
    if (this.#checkScheduled || this.#sink === undefined) return;
    this.#checkScheduled = true;
    setImmediate(() => {
      this.#checkScheduled = false;
      if (this.#sink === undefined || this.#outcome !== undefined) return;
      const all = this.#run.waits();
      if (all.length === 0) return;
      const people = all.filter((wait) => !this.#isFrontend(wait));
      if (people.length > 0) {
        this.#end({ type: 'interrupt', interrupts: people.map((wait) => toInterrupt(this.id, wait, this.toolCallId)) }, undefined, 'waiting');
        return;
      }
      // Only frontend tool calls: the run is complete for now, the client answers them on its next input.
      const pending = all.flatMap((wait) => (wait.kind === 'approval' ? [this.toolCallId(wait.callId)] : []));
      this.#end({ type: 'success', pendingToolCallIds: pending }, undefined, 'waiting');
    });
  }

  #finish(): void {
    const outcome = this.#outcome;
    if (outcome === undefined || this.#sink === undefined) return;
    this.#subscription.unsubscribe();
    if (outcome.kind === 'failed') {
      const current = this.#sink;
      this.#closeOpen();
      this.#send({ type: EventType.MESSAGES_SNAPSHOT, messages: this.#messages });
      this.#send({ type: EventType.RUN_ERROR, message: outcome.message, code: outcome.code });
      this.#sink = undefined;
      current.sink.end();
      current.ended('done');
      return;
    }
    this.#end(
      outcome.kind === 'cancelled' ? { type: 'cancelled' } : { type: 'success' },
      outcome.kind === 'finished' ? outcome.result : undefined,
      'done',
    );
  }

  #closeOpen(): void {
    this.#closeText();
    if (this.#openStep !== undefined) this.#send({ type: EventType.STEP_FINISHED, stepName: this.#openStep });
  }

  #end(outcome: RunFinishedOutcome, result: Record<string, unknown> | undefined, end: RunEnd): void {
    const current = this.#sink;
    if (current === undefined) return;
    this.#closeOpen();
    if (end === 'done') this.#openStep = undefined;
    this.#send({ type: EventType.MESSAGES_SNAPSHOT, messages: this.#messages });
    this.#send({
      type: EventType.RUN_FINISHED,
      threadId: current.threadId,
      runId: current.runId,
      outcome,
      ...(result === undefined ? {} : { result }),
    });
    this.#sink = undefined;
    current.sink.end();
    current.ended(end);
  }
}
