import { type Usage, costOf } from '@agentchart/core';
import { addUsage, zeroUsage } from '@agentchart/core/internal';
import type { ReliableToolEvent, ReliableToolEventOf } from '@agentchart/actors';
import { type Attributes, type Context, type Span, SpanKind, trace } from '@opentelemetry/api';
import { ATTR, OPERATION, SPAN_EVENT } from './genAiAttributes.js';
import { contentAttribute } from './spanContent.js';
import { recordError } from './spanErrors.js';
import { type TracingSettings, toolCallKey } from './tracingSettings.js';

/**
 * The spans of one reliable-tool run: `invoke_agent {tool}` (INTERNAL) under
 * the agent's `execute_tool` span that called it (when an agent did), with a
 * `chat {model}` span per runner and validator call and an `execute_tool`
 * span per invocation of the wrapped tool; verdicts are span events.
 */
export class ReliableSpans {
  private span: Span | undefined;
  private context: Context | undefined;
  private modelCall: { span: Span; model: string } | undefined;
  private toolCall: Span | undefined;
  private wrappedTool = 'tool';
  private usage: Usage = zeroUsage();
  private cost: number | undefined;

  constructor(
    private readonly settings: TracingSettings,
    private readonly fallbackParent: Context,
  ) {}

  onEvent(event: ReliableToolEvent): void {
    switch (event.type) {
      case 'reliable.run.started':
        this.start(event);
        return;
      case 'reliable.attempt.started':
        this.span?.addEvent(SPAN_EVENT.attemptStarted, { 'agentchart.attempt': event.attempt });
        return;
      case 'reliable.model.request':
        this.startModelCall(event);
        return;
      case 'reliable.model.response':
        this.finishModelCall(event);
        return;
      case 'reliable.runner.call':
        this.startToolCall(event);
        return;
      case 'reliable.tool.result':
        this.finishToolCall(event);
        return;
      case 'reliable.validator.verdict': {
        const attributes: Attributes = { 'agentchart.attempt': event.attempt, 'agentchart.valid': event.valid };
        const justification = contentAttribute(this.settings, event.justification);
        if (justification !== undefined) attributes['agentchart.justification'] = justification;
        this.span?.addEvent(SPAN_EVENT.verdict, attributes);
        return;
      }
      case 'reliable.run.finished':
        this.finish(event);
        return;
      default:
        return;
    }
  }

  private start(event: ReliableToolEventOf<'reliable.run.started'>): void {
    const { caller } = event;
    const parent = (caller && this.settings.toolCalls.get(toolCallKey(caller.runId, caller.callId))) ?? this.fallbackParent;
    if (event.wrappedTool !== undefined) this.wrappedTool = event.wrappedTool;
    const attributes: Attributes = {
      [ATTR.operationName]: OPERATION.invokeAgent,
      [ATTR.agentName]: event.tool,
      [ATTR.agentId]: event.runId,
      'agentchart.reliable_tool.max_invocations': event.maxToolInvocations,
    };
    const input = contentAttribute(this.settings, [{ role: 'user', parts: [{ type: 'text', content: event.task }] }]);
    if (input !== undefined) attributes[ATTR.inputMessages] = input;
    this.span = this.settings.startSpan(`${OPERATION.invokeAgent} ${event.tool}`, { kind: SpanKind.INTERNAL, attributes }, parent);
    this.context = trace.setSpan(parent, this.span);
  }

  private startModelCall(event: ReliableToolEventOf<'reliable.model.request'>): void {
    this.modelCall?.span.end();
    const attributes: Attributes = {
      [ATTR.operationName]: OPERATION.chat,
      [ATTR.providerName]: event.provider,
      [ATTR.requestModel]: event.model,
      [ATTR.reliableRole]: event.role,
      'agentchart.attempt': event.attempt,
    };
    const span = this.settings.startSpan(`${OPERATION.chat} ${event.model}`, { kind: SpanKind.CLIENT, attributes }, this.context);
    this.modelCall = { span, model: event.model };
  }

  private finishModelCall(event: ReliableToolEventOf<'reliable.model.response'>): void {
    if (this.modelCall === undefined) return;
    const { span, model } = this.modelCall;
    span.setAttribute(ATTR.inputTokens, event.usage.inputTokens);
    span.setAttribute(ATTR.outputTokens, event.usage.outputTokens);
    const cost = costOf(this.settings.prices, model, event.usage);
    if (cost !== undefined) {
      span.setAttribute(ATTR.cost, cost);
      this.cost = (this.cost ?? 0) + cost;
    }
    this.usage = addUsage(this.usage, event.usage);
    span.end();
    this.modelCall = undefined;
  }

  private startToolCall(event: ReliableToolEventOf<'reliable.runner.call'>): void {
    const attributes: Attributes = {
      [ATTR.operationName]: OPERATION.executeTool,
      [ATTR.toolName]: this.wrappedTool,
      [ATTR.toolCallId]: event.callId,
      [ATTR.toolType]: 'function',
      'agentchart.attempt': event.attempt,
    };
    const args = contentAttribute(this.settings, event.args);
    if (args !== undefined) attributes[ATTR.toolCallArguments] = args;
    this.toolCall = this.settings.startSpan(`${OPERATION.executeTool} ${this.wrappedTool}`, { kind: SpanKind.INTERNAL, attributes }, this.context);
  }

  private finishToolCall(event: ReliableToolEventOf<'reliable.tool.result'>): void {
    const span = this.toolCall;
    if (span === undefined) return;
    const result = contentAttribute(this.settings, event.text);
    if (result !== undefined) span.setAttribute(ATTR.toolCallResult, result);
    if (event.isError) recordError(span, event.error ?? { name: 'ToolError', code: 'tool_error', message: event.text });
    span.end();
    this.toolCall = undefined;
  }

  private finish(event: ReliableToolEventOf<'reliable.run.finished'>): void {
    const span = this.span;
    if (!event.ok) {
      const error = {
        name: 'ReliableToolError',
        code: event.code ?? 'RELIABLE_TOOL_FAILED',
        message: event.failureReason ?? 'The reliable tool failed.',
      };
      if (this.modelCall !== undefined && event.code === 'RELIABLE_TOOL_MODEL_FAILED') recordError(this.modelCall.span, error);
      if (span !== undefined) recordError(span, error);
    }
    this.close();
    if (span === undefined) return;
    span.setAttribute('agentchart.reliable_tool.attempts', event.attempts);
    span.setAttribute(ATTR.inputTokens, this.usage.inputTokens);
    span.setAttribute(ATTR.outputTokens, this.usage.outputTokens);
    if (this.cost !== undefined) span.setAttribute(ATTR.cost, this.cost);
    span.end();
  }

  /** Ends the model and tool spans still open. */
  close(): void {
    this.modelCall?.span.end();
    this.modelCall = undefined;
    this.toolCall?.end();
    this.toolCall = undefined;
  }
}
