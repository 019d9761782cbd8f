export { REDACTED, TRACE_VERSION } from './constants.js';
export { type DotOptions, graphToDot } from './diagrams/graphToDot.js';
export { graphToMermaid } from './diagrams/graphToMermaid.js';
export type { GraphEdge } from './diagrams/graphEdge.js';
export {
  type GraphNode,
  machineGraph,
  type MachineGraph,
  type MachineGraphOptions,
} from './diagrams/machineGraph.js';
export { renderDotToSvg, renderGraphToSvg } from './diagrams/renderSvg.js';
export { TraceFormatError } from './errors.js';
export { createSanitizer, type JsonValue, type SanitizeOptions, sanitizeValue } from './sanitize/sanitizeValue.js';
export { isSecretKey, isSecretValue } from './sanitize/secretKeys.js';
export {
  inspectWithStately,
  type StatelyInspector,
  type StatelyInspectorOptions,
  statelySanitizers,
} from './stately/inspectWithStately.js';
export {
  createTraceRecorder,
  type RecordableRun,
  type TraceRecorder,
  type TraceRecorderOptions,
} from './trace/createTraceRecorder.js';
export { formatTimeline, type TimelineOptions } from './trace/formatTimeline.js';
export { parseTrace, readTraceFile, replayTrace } from './trace/readTrace.js';
export type { AnyRunEvent } from './trace/runEntries.js';
export type { Trace, TraceEntry, TraceEntryOf, TraceHeader } from './trace/traceFormat.js';
export { memorySink, ndjsonFileSink, toNdjson, type TraceLine, type TraceSink } from './trace/traceSinks.js';
export { startViewServer, type ViewServer, type ViewServerOptions } from './view/startViewServer.js';
