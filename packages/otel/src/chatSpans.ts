import type { Usage } from '@agentchart/core';
import { addUsage, zeroUsage } from '@agentchart/core/internal';
import type { ChatEvent } from '@agentchart/actors';
import { type Attributes, type Context, type Span, SpanKind, trace } from '@opentelemetry/api';
import { ATTR, OPERATION, SPAN_EVENT } from './genAiAttributes.js';
import { RunSpans } from './runSpans.js';
import { contentAttribute, conventionMessage } from './spanContent.js';
import { recordError } from './spanErrors.js';
import type { TracingSettings } from './tracingSettings.js';

/**
 * The spans of one group chat, built from its events: `invoke_workflow {chat}`
 * (INTERNAL), with each agent turn's `invoke_agent` span under it and each
 * nested chat's own `invoke_workflow` span (and everything under that) too.
 * Speaker selections, handoffs and human turns are span events.
 */
export class ChatSpans {
  private span: Span | undefined;
  private context: Context | undefined;
  private chatId = '';
  private readonly runs = new Map<string, RunSpans>();
  private readonly nested = new Map<string, ChatSpans>();
  private usageSoFar: Usage = zeroUsage();
  private costSoFar: number | undefined;
  /** Set once `chat.finished` has ended the chat's span. */
  private finished = false;

  /** `name` names the chat when its `chat.started` does not (a nested chat: its participant name) or was not seen (a resumed chat). */
  constructor(
    private readonly settings: TracingSettings,
    private readonly parent: Context,
    private readonly name?: string,
  ) {}

  /** The tokens of every agent turn of the chat (nested chats included) that ended so far. */
  get usage(): Usage {
    return this.usageSoFar;
  }

  /** What that usage cost, summed over the turns whose model has a price. */
  get cost(): number | undefined {
    return this.costSoFar;
  }

  onEvent(event: ChatEvent): void {
    // A chat traced from the middle (resumed, its `chat.started` gone by) gets its span with its first event.
    if (this.span === undefined && !this.finished && event.type !== 'chat.started') {
      this.start({ type: 'chat.started', chatId: event.chatId, messages: [], resumed: true });
    }
    switch (event.type) {
      case 'chat.started':
        if (this.span === undefined) this.start(event);
        return;
      case 'speaker.selected':
        this.span?.addEvent(SPAN_EVENT.speakerSelected, {
          'agentchart.speaker': event.speaker,
          'agentchart.selected_by': event.by,
          [ATTR.rounds]: event.round,
        });
        return;
      case 'handoff':
        this.span?.addEvent(SPAN_EVENT.handoff, { 'agentchart.from': event.from, 'agentchart.to': event.to, 'agentchart.via': event.via });
        return;
      case 'human.waiting':
        this.span?.addEvent(SPAN_EVENT.humanWaiting, { 'agentchart.speaker': event.speaker });
        return;
      case 'human.said': {
        const attributes: Attributes = { 'agentchart.speaker': event.speaker };
        const text = contentAttribute(this.settings, event.text);
        if (text !== undefined) attributes['agentchart.text'] = text;
        this.span?.addEvent(SPAN_EVENT.humanSaid, attributes);
        return;
      }
      case 'agent.event':
        this.onAgentEvent(event);
        return;
      case 'nested.event':
        this.onNestedEvent(event);
        return;
      case 'chat.finished':
        this.finish(event);
        return;
      default:
        return;
    }
  }

  /** Ends whatever is still open (a chat whose event stream ended without `chat.finished`). */
  close(): void {
    for (const run of this.runs.values()) run.close();
    for (const chat of this.nested.values()) chat.close();
    this.runs.clear();
    this.nested.clear();
    this.span?.end();
    this.span = undefined;
  }

  private start(event: Extract<ChatEvent, { type: 'chat.started' }>): void {
    this.chatId = event.chatId;
    const name = event.name ?? this.name ?? 'group_chat';
    const attributes: Attributes = {
      [ATTR.operationName]: OPERATION.invokeWorkflow,
      [ATTR.agentName]: name,
      [ATTR.workflowName]: name,
      [ATTR.conversationId]: event.chatId,
      'agentchart.chat.resumed': event.resumed,
    };
    const input = contentAttribute(
      this.settings,
      event.messages.map((message) => conventionMessage(message)),
    );
    if (input !== undefined) attributes[ATTR.inputMessages] = input;
    this.span = this.settings.startSpan(`${OPERATION.invokeWorkflow} ${name}`, { kind: SpanKind.INTERNAL, attributes }, this.parent);
    this.context = trace.setSpan(this.parent, this.span);
  }

  private onAgentEvent({ event }: Extract<ChatEvent, { type: 'agent.event' }>): void {
    let run = this.runs.get(event.runId);
    if (run === undefined) {
      // A turn resumed mid-run (its agent waited for approval) has no `run.started`: its span starts with its first event.
      run = new RunSpans(this.settings, { parent: this.context ?? this.parent, conversationId: this.chatId });
      this.runs.set(event.runId, run);
    }
    run.onEvent(event);
    if (event.type === 'run.finished') {
      this.runs.delete(event.runId);
      this.addUp(run.usage, run.cost);
    }
  }

  private onNestedEvent({ speaker, event }: Extract<ChatEvent, { type: 'nested.event' }>): void {
    let chat = this.nested.get(event.chatId);
    if (chat === undefined) {
      chat = new ChatSpans(this.settings, this.context ?? this.parent, speaker);
      this.nested.set(event.chatId, chat);
    }
    chat.onEvent(event);
    if (event.type === 'chat.finished') {
      this.nested.delete(event.chatId);
      this.addUp(chat.usage, chat.cost);
    }
  }

  private addUp(usage: Usage, cost: number | undefined): void {
    this.usageSoFar = addUsage(this.usageSoFar, usage);
    if (cost !== undefined) this.costSoFar = (this.costSoFar ?? 0) + cost;
  }

  private finish(event: Extract<ChatEvent, { type: 'chat.finished' }>): void {
    this.finished = true;
    const span = this.span;
    for (const run of this.runs.values()) {
      run.close();
      this.addUp(run.usage, run.cost);
    }
    for (const chat of this.nested.values()) chat.close();
    this.runs.clear();
    this.nested.clear();
    if (span === undefined) return;
    span.setAttribute(ATTR.stopReason, event.reason);
    span.setAttribute(ATTR.rounds, event.rounds);
    span.setAttribute(ATTR.inputTokens, this.usageSoFar.inputTokens);
    span.setAttribute(ATTR.outputTokens, this.usageSoFar.outputTokens);
    if (this.costSoFar !== undefined) span.setAttribute(ATTR.cost, this.costSoFar);
    if (event.error !== undefined) recordError(span, event.error);
    span.end();
    this.span = undefined;
  }
}
