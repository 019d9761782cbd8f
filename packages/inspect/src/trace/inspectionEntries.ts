import type { ActorRefLike, AnyActor, AnyStateMachine, InspectionEvent } from 'xstate';
import { type MachineGraph, machineGraph } from '../diagrams/machineGraph.js';
import { type JsonValue, type SanitizeOptions, createSanitizer } from '../sanitize/sanitizeValue.js';
import { type MachineSnapshotLike, activeStateNodes } from './activeStateNodes.js';
import type { TraceEntry } from './traceFormat.js';

/** An entry before the recorder numbers and times it. */
export type UntimedEntry = TraceEntry extends infer E ? (E extends TraceEntry ? Omit<E, 'seq' | 't'> : never) : never;

/** Trace entries of inspection events, and the trace's id of an actor. */
export interface InspectionEntries {
  (event: InspectionEvent): UntimedEntry[];
  /** The id an actor has in the trace (its `parentId` in its children's entries). */
  idOf(actor: ActorRefLike): string;
}

/**
 * Turns XState inspection events into trace entries: plain, sanitised data.
 * Remembers which machines it has described, so each graph is written once.
 * An actor's entry has no `parentId`: XState tells the parent later (see
 * `actorParents`), and `idOf` names it.
 *
 * @example
 * const toEntries = inspectionEntries();
 * createActor(machine, { inspect: (event) => toEntries(event).forEach(write) });
 */
export function inspectionEntries(sanitize: SanitizeOptions = {}, machineKeys: MachineKeys = createMachineKeys()): InspectionEntries {
  const clean = createSanitizer(sanitize);
  const machineEntry = (machine: AnyStateMachine): { key: string; entry?: UntimedEntry } => {
    const known = machineKeys.known(machine);
    if (known !== undefined) return { key: known };
    const graph = machineGraph(machine);
    const { key, isNew } = machineKeys.claim(machine, graph);
    return isNew ? { key, entry: { kind: 'machine', machine: key, graph } } : { key };
  };
  // Session ids restart at x:0 in every actor system (every run), so ids are prefixed by system.
  const systems = new WeakMap<object, number>();
  let systemCount = 0;
  const idOf = (actor: ActorRefLike) => {
    const system = ((actor as AnyActor).system ?? actor) as object;
    let index = systems.get(system);
    if (index === undefined) {
      index = ++systemCount;
      systems.set(system, index);
    }
    return `s${index}/${actor.sessionId}`;
  };

  const toEntries = (event: InspectionEvent): UntimedEntry[] => {
    const actorId = idOf(event.actorRef);
    switch (event.type) {
      case '@xstate.actor': {
        const actor = event.actorRef as AnyActor;
        const entries: UntimedEntry[] = [];
        const entry: UntimedEntry = { kind: 'actor', actorId, name: actorName(actor) };
        const systemId = (actor.options as { systemId?: unknown } | undefined)?.systemId;
        if (typeof systemId === 'string') entry.systemId = systemId;
        const label = actorLabel(actor);
        if (label !== undefined) entry.label = label;
        if (isMachine(actor.logic)) {
          const described = machineEntry(actor.logic);
          if (described.entry) entries.push(described.entry);
          entry.machine = described.key;
        }
        entries.push(entry);
        return entries;
      }
      case '@xstate.event': {
        const entry: UntimedEntry = { kind: 'event', actorId, event: withType(event.event, clean(event.event)) };
        if (event.sourceRef) entry.sourceId = idOf(event.sourceRef);
        return [entry];
      }
      case '@xstate.snapshot': {
        const snapshot = event.snapshot as MachineSnapshotLike & { status?: string; context?: unknown };
        const entry: UntimedEntry = {
          kind: 'snapshot',
          actorId,
          status: snapshot.status ?? 'active',
          eventType: event.event.type,
        };
        if (snapshot.value !== undefined) entry.value = clean(snapshot.value);
        const active = activeStateNodes(snapshot);
        if (active !== undefined) entry.activeStates = active.map((node) => node.id);
        if (snapshot.context !== undefined) entry.context = clean(snapshot.context);
        return [entry];
      }
      default:
        return [];
    }
  };
  return Object.assign(toEntries, { idOf });
}

/** A sanitised event with its original `type`. */
export function withType(event: { type: string }, clean: JsonValue): { type: string } & Record<string, unknown> {
  return { ...(typeof clean === 'object' && clean !== null && !Array.isArray(clean) ? clean : {}), type: event.type };
}

function isMachine(logic: unknown): logic is AnyStateMachine {
  return typeof logic === 'object' && logic !== null && 'root' in logic && 'config' in logic && 'transition' in logic;
}

function actorName(actor: AnyActor): string {
  return typeof actor.src === 'string' ? actor.src : isMachine(actor.logic) ? actor.logic.id : actor.id;
}

/** The agent (or chat) an actor works for, read from its input: `runtime.agentName`, `agentName` or `name`. */
function actorLabel(actor: AnyActor): string | undefined {
  const input = (actor.options as { input?: unknown } | undefined)?.input;
  if (typeof input !== 'object' || input === null) return undefined;
  const record = input as { runtime?: { agentName?: unknown }; agentName?: unknown; name?: unknown };
  for (const candidate of [record.runtime?.agentName, record.agentName, record.name]) {
    if (typeof candidate === 'string') return candidate;
  }
  return undefined;
}

/**
 * The keys of the machines of one trace: a machine's id, with `#2`, `#3` for
 * different machines of the same id. Machines drawn alike share a key (every
 * run builds its own agent machine; they are one picture).
 */
export interface MachineKeys {
  known(machine: object): string | undefined;
  claim(machine: object, graph: MachineGraph): { key: string; isNew: boolean };
}

/** A fresh set of machine keys, for one trace. */
export function createMachineKeys(): MachineKeys {
  const byMachine = new WeakMap<object, string>();
  const byDrawing = new Map<string, string>();
  const used = new Set<string>();
  return {
    known: (machine) => byMachine.get(machine),
    claim: (machine, graph) => {
      const drawing = JSON.stringify(graph);
      const same = byDrawing.get(drawing);
      if (same !== undefined) {
        byMachine.set(machine, same);
        return { key: same, isNew: false };
      }
      let key = graph.id;
      for (let n = 2; used.has(key); n++) key = `${graph.id}#${n}`;
      used.add(key);
      byDrawing.set(drawing, key);
      byMachine.set(machine, key);
      return { key, isNew: true };
    },
  };
}
