import { type SpeakerGraph, type TransitionSettings, compileTransitions } from './compileTransitions.js';

/** Compiled speaker graphs by their inputs (participants and transition settings, as JSON). */
const graphs = new Map<string, SpeakerGraph>();

/** Enough for every distinct chat shape a process makes; the oldest is dropped past it. */
const MAX_SHARED_GRAPHS = 512;

/**
 * The compiled speaker transitions for `participants` and `settings`, shared
 * by every chat with the same ones: a graph (its statechart, who may follow
 * whom) never changes once compiled, so a thousand round-robin chats of the
 * same four names hold one. Settings that cannot be written as JSON are
 * compiled for the caller alone.
 *
 * @example
 * const graph = sharedSpeakerGraph(['a', 'b'], { allowRepeatSpeaker: false });
 * graph === sharedSpeakerGraph(['a', 'b'], { allowRepeatSpeaker: false }); // true
 */
export function sharedSpeakerGraph(participants: readonly string[], settings: TransitionSettings): SpeakerGraph {
  const key = graphKey(participants, settings);
  if (key === undefined) return compileTransitions(participants, settings);
  let graph = graphs.get(key);
  if (graph === undefined) {
    graph = compileTransitions(participants, settings);
    if (graphs.size >= MAX_SHARED_GRAPHS) graphs.delete(graphs.keys().next().value as string);
    graphs.set(key, graph);
  }
  return graph;
}

/**
 * The settings as JSON, or `undefined` when they hold anything but strings,
 * booleans, lists and plain objects (JSON would write two different values
 * the same way, e.g. `undefined` and `null`, and one of them may be an error).
 */
function graphKey(participants: readonly string[], settings: TransitionSettings): string | undefined {
  try {
    const inputs = [participants, settings.transitions ?? null, settings.allowRepeatSpeaker ?? null, settings.initialSpeaker ?? null];
    return JSON.stringify(inputs, (_key, value: unknown) => {
      if (value === null || typeof value === 'string' || typeof value === 'boolean' || Array.isArray(value)) return value;
      if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) return value;
      throw new TypeError('not plain settings');
    });
  } catch {
    return undefined;
  }
}
