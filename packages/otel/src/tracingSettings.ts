import type { PriceTable } from '@agentchart/core';
import type { SanitizeOptions } from '@agentchart/inspect';
import type { Context, Tracer } from '@opentelemetry/api';
import type { StartSpan } from './exportedSpan.js';

/** What `genAiTracing` takes. */
export interface GenAiTracingOptions {
  /** Where spans go (default: `trace.getTracer('@agentchart/otel')` of the global tracer provider). */
  tracer?: Tracer;
  /**
   * Record message, argument and result content on spans (`gen_ai.input.messages`,
   * `gen_ai.output.messages`, `gen_ai.tool.call.arguments`, `gen_ai.tool.call.result`).
   * Off by default: content may hold personal data. When on, every value goes
   * through the same secret sanitiser as agentchart's traces first.
   */
  captureContent?: boolean;
  /** How content is sanitised when it is captured (secret keys, lengths). */
  sanitize?: SanitizeOptions;
  /** Turns usage into cost (`agentchart.usage.cost`): prices per million tokens by model name. */
  prices?: PriceTable;
}

/** The settings every recorder of one `genAiTracing` shares. */
export interface TracingSettings {
  /** Starts a span on the tracer, bounded and on one clock (`exportedSpans`). */
  startSpan: StartSpan;
  captureContent: boolean;
  sanitize: SanitizeOptions;
  prices: PriceTable | undefined;
  /** The context of each open `execute_tool` span, by run id and call id: where a reliable run's span goes. */
  toolCalls: Map<string, Context>;
}

/** The key of a tool call in `TracingSettings.toolCalls`. */
export const toolCallKey = (runId: string, callId: string): string => `${runId}\u0000${callId}`;
