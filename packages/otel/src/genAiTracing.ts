import type { AgentRun, ChatEvent, GroupChatRun, ReliableToolEvent } from '@agentchart/actors';
import type { RunEvent } from '@agentchart/core';
import { type Context, context, trace } from '@opentelemetry/api';
import type { Observable } from 'rxjs';
import { ChatSpans } from './chatSpans.js';
import { DEFAULT_MAX_TEXT_LENGTH } from './constants.js';
import { exportedSpans } from './exportedSpan.js';
import { ReliableSpans } from './reliableSpans.js';
import { RunSpans } from './runSpans.js';
import { highResolutionNow } from './spanClock.js';
import type { GenAiTracingOptions, TracingSettings } from './tracingSettings.js';

/** Where a traced run's top span goes. */
export interface TraceOptions {
  /** The parent context (default: the active context when `traceRun` / `traceChat` is called). */
  parent?: Context;
  /** The chat's name, for a chat traced from the middle (resumed, its `chat.started` gone by): `chat.name`. */
  name?: string;
}

/** Stops tracing: unsubscribes and ends the spans still open. */
export type StopTracing = () => void;

/** Turns agentchart runs into OpenTelemetry GenAI spans. */
export interface GenAiTracing {
  /**
   * Traces one agent run: `invoke_agent {agent}` with its `chat {model}` and
   * `execute_tool {tool}` spans. Call it right after `agent.run(...)`.
   *
   * @example
   * const run = agent.run('What is 2 + 3?');
   * tracing.traceRun(run);
   */
  traceRun(run: Pick<AgentRun, 'events$'>, options?: TraceOptions): StopTracing;
  /**
   * Traces one group chat: `invoke_workflow {chat}` with every turn's spans
   * under it, nested chats included. Call it right after `chat.run(...)`.
   *
   * @example
   * tracing.traceChat(chat.run('Plan a trip to Lisbon.'));
   */
  traceChat(run: Pick<GroupChatRun, 'events$'>, options?: TraceOptions): StopTracing;
  /**
   * Traces every run of a reliable tool from now on: when an agent calls it,
   * its `invoke_agent` span goes under that agent's `execute_tool` span
   * (trace the agent's run or chat with the same `GenAiTracing`).
   *
   * @example
   * const stop = tracing.traceReliableTool(weather);
   */
  traceReliableTool(tool: { readonly events$: Observable<ReliableToolEvent> }, options?: TraceOptions): StopTracing;
}

/**
 * Creates the tracing of agentchart runs, chats and reliable tools as
 * OpenTelemetry spans that follow the GenAI semantic conventions. Content
 * (messages, tool arguments and results) is recorded only with
 * `captureContent: true`, and then sanitised like agentchart's traces.
 *
 * @example
 * const tracing = genAiTracing({ tracer: provider.getTracer('my-app') });
 * const run = chat.run('Plan a trip to Lisbon.');
 * tracing.traceChat(run);
 * await run.result;
 */
export function genAiTracing(options: GenAiTracingOptions = {}): GenAiTracing {
  const sanitize = options.sanitize ?? {};
  const settings: TracingSettings = {
    startSpan: exportedSpans(options.tracer ?? trace.getTracer('@agentchart/otel'), {
      now: highResolutionNow,
      maxTextLength: sanitize.maxStringLength ?? DEFAULT_MAX_TEXT_LENGTH,
    }),
    captureContent: options.captureContent ?? false,
    sanitize,
    prices: options.prices,
    toolCalls: new Map(),
  };
  return {
    traceRun: (run, traceOptions = {}) => {
      const spans = new RunSpans(settings, { parent: traceOptions.parent ?? context.active() });
      return follow(
        run.events$,
        (event: RunEvent) => spans.onEvent(event),
        () => spans.close(),
      );
    },
    traceChat: (run, traceOptions = {}) => {
      const spans = new ChatSpans(settings, traceOptions.parent ?? context.active(), traceOptions.name);
      return follow(
        run.events$,
        (event: ChatEvent) => spans.onEvent(event),
        () => spans.close(),
      );
    },
    traceReliableTool: (tool, traceOptions = {}) => {
      const parent = traceOptions.parent ?? context.active();
      const runs = new Map<string, ReliableSpans>();
      const onEvent = (event: ReliableToolEvent) => {
        let spans = runs.get(event.runId);
        if (spans === undefined) {
          if (event.type !== 'reliable.run.started') return;
          spans = new ReliableSpans(settings, parent);
          runs.set(event.runId, spans);
        }
        spans.onEvent(event);
        if (event.type === 'reliable.run.finished') runs.delete(event.runId);
      };
      return follow(tool.events$, onEvent, () => {
        for (const spans of runs.values()) spans.close();
        runs.clear();
      });
    },
  };
}

/** Feeds a stream's events to a recorder; its end (or `stop`) closes what is open. */
function follow<E>(events$: Observable<E>, onEvent: (event: E) => void, close: () => void): StopTracing {
  const subscription = events$.subscribe({ next: onEvent, complete: close, error: close });
  return () => {
    subscription.unsubscribe();
    close();
  };
}
