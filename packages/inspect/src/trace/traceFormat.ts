import { z } from 'zod';
import { TRACE_FORMAT, TRACE_VERSION } from '../constants.js';

/**
 * The trace format, version 1: newline-delimited JSON, one object per line.
 * The first line is the header; every later line is an entry with a running
 * `seq` and `t` (milliseconds since the recording started).
 *
 * - `actor`: an actor was created (`parentId` links it to its parent;
 *   `machine` names its machine's graph when it is a state machine).
 * - `machine`: a machine's graph (states and transitions), written once per machine.
 * - `event`: an event an actor received (sanitised).
 * - `snapshot`: an actor's new snapshot (state value, active state ids, sanitised context).
 * - `run`: a run event from `events$` (sanitised): an agent's (`runId`,
 *   `agent`) or a group chat's (`chatId`; its agents' events are recorded as
 *   their own `run` entries, with `speaker`).
 */
const JsonSchema: z.ZodType<unknown> = z.unknown();
const entryBase = { seq: z.number().int().nonnegative(), t: z.number().nonnegative() };

export const TraceHeaderSchema = z.object({
  kind: z.literal('header'),
  format: z.literal(TRACE_FORMAT),
  version: z.number().int(),
  startedAt: z.string(),
  title: z.string().optional(),
});
export type TraceHeader = z.infer<typeof TraceHeaderSchema>;

const GraphSchema = z.object({
  id: z.string(),
  nodes: z.array(
    z.object({
      id: z.string(),
      key: z.string(),
      parent: z.string().optional(),
      type: z.enum(['atomic', 'compound', 'parallel', 'final', 'history']),
      initial: z.string().optional(),
      invokes: z.array(z.string()),
      description: z.string().optional(),
    }),
  ),
  edges: z.array(
    z.object({
      source: z.string(),
      target: z.string(),
      event: z.string(),
      label: z.string(),
      guard: z.string().optional(),
      internal: z.boolean().optional(),
    }),
  ),
});

export const TraceEntrySchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('actor'),
    ...entryBase,
    actorId: z.string(),
    parentId: z.string().optional(),
    systemId: z.string().optional(),
    /** The actor's id in its parent (`0.agent.thinking`) or its logic's `src` (`callModel`). */
    name: z.string(),
    /** The key of the `machine` entry holding its graph, for state machines. */
    machine: z.string().optional(),
    /** Whose actor this is, for people: the agent's name where known. */
    label: z.string().optional(),
  }),
  z.object({ kind: z.literal('machine'), ...entryBase, machine: z.string(), graph: GraphSchema }),
  z.object({
    kind: z.literal('event'),
    ...entryBase,
    actorId: z.string(),
    sourceId: z.string().optional(),
    event: z.object({ type: z.string() }).catchall(JsonSchema),
  }),
  z.object({
    kind: z.literal('snapshot'),
    ...entryBase,
    actorId: z.string(),
    status: z.string(),
    /** The type of the event that produced this snapshot. */
    eventType: z.string(),
    value: JsonSchema.optional(),
    activeStates: z.array(z.string()).optional(),
    context: JsonSchema.optional(),
  }),
  z.object({
    kind: z.literal('run'),
    ...entryBase,
    event: z.object({ type: z.string() }).catchall(JsonSchema),
  }),
]);
export type TraceEntry = z.infer<typeof TraceEntrySchema>;
export type TraceEntryOf<K extends TraceEntry['kind']> = Extract<TraceEntry, { kind: K }>;

/** A whole trace: its header and its entries in order. */
export interface Trace {
  header: TraceHeader;
  entries: TraceEntry[];
}

/** The header of a new trace. */
export function traceHeader(startedAt: Date, title?: string): TraceHeader {
  const header: TraceHeader = { kind: 'header', format: TRACE_FORMAT, version: TRACE_VERSION, startedAt: startedAt.toISOString() };
  if (title !== undefined) header.title = title;
  return header;
}
