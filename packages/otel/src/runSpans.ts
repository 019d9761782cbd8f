import { type Message, type RunEvent, type Usage, costOf } from '@agentchart/core';
import { addUsage, zeroUsage } from '@agentchart/core/internal';
import { type Attributes, type Context, type Span, SpanKind, trace } from '@opentelemetry/api';
import { ABORTED_CODE, ATTR, OPERATION, SPAN_EVENT } from './genAiAttributes.js';
import { contentAttribute, conventionMessage } from './spanContent.js';
import { recordError } from './spanErrors.js';
import { type TracingSettings, toolCallKey } from './tracingSettings.js';
import { forgetToolCallContext, publishToolCallContext } from './toolCallPropagation.js';

/** Where a run's spans go: under `parent`, in a chat's conversation when it has one. */
export interface RunScope {
  parent: Context;
  conversationId?: string;
}

interface OpenModelCall {
  span: Span;
  /** Set once the reply is complete: the span ends with the assistant message that follows. */
  finishReason?: string;
}

/**
 * The spans of one agent run, built from its events: `invoke_agent {agent}`
 * (INTERNAL) with a `chat {model}` span (CLIENT) per model call and an
 * `execute_tool {tool}` span (INTERNAL) per executed call under it; rule
 * refusals, approvals and tool-list changes are span events.
 */
export class RunSpans {
  private agentSpan: Span | undefined;
  private agentContext: Context | undefined;
  private model: OpenModelCall | undefined;
  private readonly tools = new Map<string, Span>();
  private readonly transcript: Message[] = [];
  private usageSoFar: Usage = zeroUsage();
  private modelName: string | undefined;
  private runId = '';
  /** The tools offered to the model call of the batch under way (unknown after a resume until the next call). */
  private offeredTools: ReadonlySet<string> | undefined;
  /** Calls of tools that were not offered: nothing ran, so they have no span (an event says so). */
  private readonly unknownCalls = new Set<string>();
  /** Set once `run.finished` has ended the run's span. */
  private finished = false;

  constructor(
    private readonly settings: TracingSettings,
    private readonly scope: RunScope,
  ) {}

  /** The tokens the run's model calls reported so far. */
  get usage(): Usage {
    return this.usageSoFar;
  }

  /** What that usage cost by the price table (`undefined` without a price for the run's model). */
  get cost(): number | undefined {
    return costOf(this.settings.prices, this.modelName, this.usageSoFar);
  }

  onEvent(event: RunEvent): void {
    // A resumed run reports from the resume on, without `run.started`: its span starts with its first event.
    if (this.agentSpan === undefined && !this.finished && event.type !== 'run.started') {
      this.start({ type: 'run.started', runId: event.runId, agent: event.agent, input: [] }, true);
    }
    switch (event.type) {
      case 'run.started':
        this.start(event);
        return;
      case 'model.request':
        this.startModelCall(event);
        return;
      case 'usage':
        return;
      case 'model.response':
        this.finishModelCall(event);
        return;
      case 'message':
        this.addMessage(event.message);
        return;
      case 'tool.call':
        this.startToolCall(event);
        return;
      case 'tool.result':
        this.finishToolCall(event);
        return;
      case 'tool.refused':
        this.agentSpan?.addEvent(SPAN_EVENT.toolRefused, {
          [ATTR.toolName]: event.call.name,
          [ATTR.toolCallId]: event.call.id,
          'agentchart.rule': event.rule,
          'agentchart.reason': event.reason,
          'agentchart.allowed_tools': event.allowedTools,
        });
        return;
      case 'approval.requested':
        (this.tools.get(event.id) ?? this.agentSpan)?.addEvent(SPAN_EVENT.approvalRequested, {
          [ATTR.toolName]: event.toolName,
          [ATTR.toolCallId]: event.id,
        });
        return;
      case 'approval.decided': {
        const attributes: Attributes = { [ATTR.toolName]: event.toolName, [ATTR.toolCallId]: event.id, 'agentchart.approved': event.approved };
        if (event.reason !== undefined) attributes['agentchart.reason'] = event.reason;
        // A run resumed while it waited for approval reported the call before it was persisted: its span starts now.
        if (event.approved && !this.tools.has(event.id)) this.startToolSpan(event.runId, event.step, { id: event.id, name: event.toolName });
        (this.tools.get(event.id) ?? this.agentSpan)?.addEvent(SPAN_EVENT.approvalDecided, attributes);
        return;
      }
      case 'tools.changed':
        this.agentSpan?.addEvent(SPAN_EVENT.toolsChanged, {
          [ATTR.toolCallId]: event.callId,
          'agentchart.tools.added': event.added,
          'agentchart.tools.removed': event.removed,
        });
        return;
      case 'tool.progress': {
        // The message is the tool's own text: like content, it is left out.
        const attributes: Attributes = { [ATTR.toolCallId]: event.callId, 'agentchart.progress': event.progress };
        if (event.total !== undefined) attributes['agentchart.progress.total'] = event.total;
        (this.tools.get(event.callId) ?? this.agentSpan)?.addEvent(SPAN_EVENT.toolProgress, attributes);
        return;
      }
      case 'model.malformed':
        this.agentSpan?.addEvent(SPAN_EVENT.modelMalformed, { 'agentchart.step': event.step, 'agentchart.reason': event.reason });
        return;
      case 'run.finished':
        this.finish(event);
        return;
      default:
        return;
    }
  }

  /** Ends whatever is still open (a run whose event stream ended without `run.finished`). */
  close(): void {
    this.endOpenChildren();
    this.agentSpan?.end();
    this.agentSpan = undefined;
  }

  private start(event: Extract<RunEvent, { type: 'run.started' }>, resumed = false): void {
    this.runId = event.runId;
    const attributes: Attributes = {
      [ATTR.operationName]: OPERATION.invokeAgent,
      [ATTR.agentName]: event.agent,
      [ATTR.agentId]: event.runId,
    };
    if (resumed) attributes['agentchart.resumed'] = true;
    if (this.scope.conversationId !== undefined) attributes[ATTR.conversationId] = this.scope.conversationId;
    const input = contentAttribute(
      this.settings,
      event.input.map((message) => conventionMessage(message)),
    );
    if (input !== undefined) attributes[ATTR.inputMessages] = input;
    this.agentSpan = this.settings.startSpan(`${OPERATION.invokeAgent} ${event.agent}`, { kind: SpanKind.INTERNAL, attributes }, this.scope.parent);
    this.agentContext = trace.setSpan(this.scope.parent, this.agentSpan);
    this.transcript.push(...event.input);
  }

  private startModelCall(event: Extract<RunEvent, { type: 'model.request' }>): void {
    this.endModelCall();
    this.offeredTools = new Set(event.tools);
    this.unknownCalls.clear();
    const model = event.model ?? 'unknown';
    if (this.modelName === undefined && event.model !== undefined) {
      this.modelName = event.model;
      this.agentSpan?.setAttribute(ATTR.requestModel, event.model);
      if (event.provider !== undefined) this.agentSpan?.setAttribute(ATTR.providerName, event.provider);
    }
    const attributes: Attributes = {
      [ATTR.operationName]: OPERATION.chat,
      [ATTR.requestModel]: model,
      [ATTR.step]: event.step,
    };
    if (event.provider !== undefined) attributes[ATTR.providerName] = event.provider;
    if (this.scope.conversationId !== undefined) attributes[ATTR.conversationId] = this.scope.conversationId;
    const input = contentAttribute(
      this.settings,
      this.transcript.map((message) => conventionMessage(message)),
    );
    if (input !== undefined) attributes[ATTR.inputMessages] = input;
    const span = this.settings.startSpan(`${OPERATION.chat} ${model}`, { kind: SpanKind.CLIENT, attributes }, this.agentContext);
    this.model = { span };
  }

  private finishModelCall(event: Extract<RunEvent, { type: 'model.response' }>): void {
    if (this.model === undefined) return;
    const { span } = this.model;
    span.setAttribute(ATTR.finishReasons, [event.finishReason]);
    this.model.finishReason = event.finishReason;
    if (event.usage !== undefined) {
      span.setAttribute(ATTR.inputTokens, event.usage.inputTokens);
      span.setAttribute(ATTR.outputTokens, event.usage.outputTokens);
      const cost = costOf(this.settings.prices, this.modelName, event.usage);
      if (cost !== undefined) span.setAttribute(ATTR.cost, cost);
      this.usageSoFar = addUsage(this.usageSoFar, event.usage);
    }
  }

  private addMessage(message: Message): void {
    this.transcript.push(message);
    const open = this.model;
    if (message.role !== 'assistant' || open?.finishReason === undefined) return;
    const output = contentAttribute(this.settings, [conventionMessage(message, open.finishReason)]);
    if (output !== undefined) open.span.setAttribute(ATTR.outputMessages, output);
    this.endModelCall();
  }

  private endModelCall(): void {
    this.model?.span.end();
    this.model = undefined;
  }

  private startToolCall(event: Extract<RunEvent, { type: 'tool.call' }>): void {
    const { call } = event;
    if (this.offeredTools !== undefined && !this.offeredTools.has(call.name)) {
      // A tool the model made up (or one not offered to this call): nothing executes, the runner answers it.
      this.unknownCalls.add(call.id);
      this.agentSpan?.addEvent(SPAN_EVENT.toolUnknown, { [ATTR.toolName]: call.name, [ATTR.toolCallId]: call.id, [ATTR.step]: event.step });
      return;
    }
    this.startToolSpan(event.runId, event.step, call);
  }

  private startToolSpan(runId: string, step: number, call: { id: string; name: string; arguments?: unknown; malformedArguments?: string }): void {
    const attributes: Attributes = {
      [ATTR.operationName]: OPERATION.executeTool,
      [ATTR.toolName]: call.name,
      [ATTR.toolCallId]: call.id,
      [ATTR.toolType]: 'function',
      [ATTR.step]: step,
    };
    if (this.scope.conversationId !== undefined) attributes[ATTR.conversationId] = this.scope.conversationId;
    if ('arguments' in call || 'malformedArguments' in call) {
      const args = contentAttribute(this.settings, call.arguments ?? call.malformedArguments ?? null);
      if (args !== undefined) attributes[ATTR.toolCallArguments] = args;
    }
    const span = this.settings.startSpan(`${OPERATION.executeTool} ${call.name}`, { kind: SpanKind.INTERNAL, attributes }, this.agentContext);
    this.tools.set(call.id, span);
    const spanContext = trace.setSpan(this.agentContext ?? this.scope.parent, span);
    this.settings.toolCalls.set(toolCallKey(runId, call.id), spanContext);
    publishToolCallContext(runId, call.id, spanContext);
  }

  private finishToolCall(event: Extract<RunEvent, { type: 'tool.result' }>): void {
    if (this.unknownCalls.delete(event.callId)) return;
    const span = this.tools.get(event.callId);
    if (span === undefined) {
      // Answered without running (rejected, over a limit, aborted before it started).
      this.agentSpan?.addEvent(SPAN_EVENT.toolAnswered, {
        [ATTR.toolName]: event.toolName,
        [ATTR.toolCallId]: event.callId,
        'agentchart.is_error': event.isError,
      });
      return;
    }
    if (!event.isError) {
      const result = contentAttribute(this.settings, event.content);
      if (result !== undefined) span.setAttribute(ATTR.toolCallResult, result);
    } else if (event.error?.code === ABORTED_CODE) {
      // The run was aborted while the call ran: an abort is no error (the run's span says `aborted`).
      span.setAttribute(ATTR.aborted, true);
    } else {
      // A failed call's error is its status, not its result.
      recordError(span, event.error ?? { name: 'ToolError', code: 'tool_error', message: event.content });
    }
    span.end();
    this.tools.delete(event.callId);
    this.settings.toolCalls.delete(toolCallKey(event.runId, event.callId));
    forgetToolCallContext(event.runId, event.callId);
  }

  private finish(event: Extract<RunEvent, { type: 'run.finished' }>): void {
    this.finished = true;
    const span = this.agentSpan;
    if (event.reason === 'error' && event.error !== undefined) {
      if (this.model !== undefined) recordError(this.model.span, event.error);
      if (span !== undefined) recordError(span, event.error);
    }
    this.endOpenChildren();
    if (span === undefined) return;
    span.setAttribute(ATTR.stopReason, event.reason);
    span.setAttribute(ATTR.inputTokens, this.usageSoFar.inputTokens);
    span.setAttribute(ATTR.outputTokens, this.usageSoFar.outputTokens);
    const { cost } = this;
    if (cost !== undefined) span.setAttribute(ATTR.cost, cost);
    span.end();
    this.agentSpan = undefined;
  }

  private endOpenChildren(): void {
    this.endModelCall();
    for (const [callId, span] of this.tools) {
      span.end();
      this.settings.toolCalls.delete(toolCallKey(this.runId, callId));
      forgetToolCallContext(this.runId, callId);
    }
    this.tools.clear();
  }
}
