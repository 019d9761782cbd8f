export * from './constants.js';
export { TraceFormatError } from './errors.js';
export { isSecretKey, isSecretValue } from './sanitize/secretKeys.js';
export { createSanitizer, sanitizeValue, type JsonValue, type SanitizeOptions } from './sanitize/sanitizeValue.js';
export {
  inspectWithStately,
  statelySanitizers,
  type StatelyInspector,
  type StatelyInspectorOptions,
} from './stately/inspectWithStately.js';
export {
  machineGraph,
  type GraphEdge,
  type GraphNode,
  type MachineGraph,
  type MachineGraphOptions,
} from './diagrams/machineGraph.js';
export { exploreEdges } from './diagrams/exploreEdges.js';
export { graphToMermaid } from './diagrams/graphToMermaid.js';
export { graphToDot, svgStateId, type DotOptions } from './diagrams/graphToDot.js';
export { renderDotToSvg, renderGraphToSvg } from './diagrams/renderSvg.js';
export {
  TraceEntrySchema,
  TraceHeaderSchema,
  traceHeader,
  type Trace,
  type TraceEntry,
  type TraceEntryOf,
  type TraceHeader,
} from './trace/traceFormat.js';
export {
  createMachineKeys,
  inspectionEntries,
  sanitizeEvent,
  type MachineKeys,
  type UntimedEntry,
} from './trace/inspectionEntries.js';
export { memorySink, ndjsonFileSink, toNdjson, type TraceLine, type TraceSink } from './trace/traceSinks.js';
export {
  createTraceRecorder,
  type RecordableRun,
  type TraceRecorder,
  type TraceRecorderOptions,
} from './trace/createTraceRecorder.js';
export { runEntries, type AnyRunEvent } from './trace/runEntries.js';
export { parseTrace, readTraceFile, replayTrace } from './trace/readTrace.js';
export { formatTimeline, stateText, type TimelineOptions } from './trace/formatTimeline.js';
export { startViewServer, type ViewServer, type ViewServerOptions } from './view/startViewServer.js';
