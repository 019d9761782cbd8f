import type { Usage } from '@agentchart/core';
import type { SanitizeOptions } from '@agentchart/inspect';
import type { Context, Tracer } from '@opentelemetry/api';

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
  /** Turns usage into cost (`agentchart.usage.cost`): see `PriceTable`. */
  prices?: PriceTable;
}

/**
 * Prices per million tokens, by model name (as `ChatModel.modelName` says it).
 * A model absent from the table gets no cost attribute.
 *
 * @example
 * const prices: PriceTable = { 'gpt-4o-mini': { input: 0.15, output: 0.6 } };
 */
export type PriceTable = Readonly<Record<string, { input: number; output: number }>>;

/** The settings every recorder of one `genAiTracing` shares. */
export interface TracingSettings {
  tracer: Tracer;
  captureContent: boolean;
  sanitize: SanitizeOptions;
  prices: PriceTable | undefined;
  /** The context of each open `execute_tool` span, by run id and call id: where a reliable run's span goes. */
  toolCalls: Map<string, Context>;
}

/** The key of a tool call in `TracingSettings.toolCalls`. */
export const toolCallKey = (runId: string, callId: string): string => `${runId}\u0000${callId}`;

/** What `usage` cost by `prices`, or `undefined` when the model has no price. */
export function costOf(prices: PriceTable | undefined, model: string | undefined, usage: Usage): number | undefined {
  const price = model === undefined ? undefined : prices?.[model];
  if (price === undefined) return undefined;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}
