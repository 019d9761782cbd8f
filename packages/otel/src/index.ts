export { genAiTracing, type GenAiTracing, type StopTracing, type TraceOptions } from './genAiTracing.js';
export type { GenAiTracingOptions } from './tracingSettings.js';
export { ATTR as GEN_AI_ATTRIBUTES, OPERATION as GEN_AI_OPERATIONS, SPAN_EVENT as AGENTCHART_SPAN_EVENTS } from './genAiAttributes.js';
export { enableTracing } from './enableTracing.js';
