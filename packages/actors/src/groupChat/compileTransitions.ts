import { ConfigurationError } from '@agentchart/core';
import { type AnyStateMachine, createMachine } from 'xstate';
import { assertOptions } from '../assertOptions.js';
import { TransitionSettingsSchema } from './groupChatOptionsSchema.js';
import type { SpeakerTransitions } from './groupChatTypes.js';

/** The state of the transitions machine before anyone has spoken. */
export const START_STATE = '(start)';

/** Speaker transitions compiled into a statechart: a state per last speaker, an event per participant. */
export interface SpeakerGraph {
  /** States `(start)` and one per participant; event `{ type: name }` moves to `name` where allowed. */
  readonly machine: AnyStateMachine;
  readonly participants: readonly string[];
  /** Who may speak when `last` has just spoken (`undefined`: nobody yet), in participant order. */
  eligibleAfter(last: string | undefined): string[];
  /** Names used in `transitions` or `initialSpeaker` that are not participants, with where they appear. */
  readonly unknownNames: readonly { name: string; where: string }[];
}

export interface TransitionSettings {
  transitions?: SpeakerTransitions | undefined;
  allowRepeatSpeaker?: boolean | readonly string[] | undefined;
  /** Who may speak first; default: the first participant when `transitions` is given, else everyone. */
  initialSpeaker?: string | readonly string[] | undefined;
}

/**
 * Compiles `allowed` / `disallowed` transitions and `allowRepeatSpeaker` into
 * an XState machine whose state is the last speaker. Eligibility is read from
 * the machine (`snapshot.can`), so every selection method is narrowed by the
 * same statechart.
 *
 * @example
 * const graph = compileTransitions(['a', 'b'], { transitions: { allowed: { a: ['b'], b: ['a'] } } });
 * graph.eligibleAfter('a'); // ['b']
 */
export function compileTransitions(participants: readonly string[], settings: TransitionSettings): SpeakerGraph {
  assertOptions(TransitionSettingsSchema, settings, 'compileTransitions(participants, settings)');
  const known = new Set(participants);
  const unknownNames: { name: string; where: string }[] = [];
  const note = (name: string, where: string) => {
    if (!known.has(name)) unknownNames.push({ name, where });
  };

  const edges = new Map<string, Set<string>>();
  const { transitions } = settings;
  checkTransitionsShape(transitions);
  if (transitions?.allowed !== undefined) {
    for (const name of participants) edges.set(name, new Set());
    for (const [from, targets] of Object.entries(transitions.allowed)) {
      note(from, `transitions.allowed (key "${from}")`);
      targets.forEach((to, index) => note(to, `transitions.allowed.${from}[${index}]`));
      edges.get(from)?.clear();
      for (const to of targets) if (known.has(to)) edges.get(from)?.add(to);
    }
  } else {
    for (const name of participants) edges.set(name, new Set(participants));
    for (const [from, targets] of Object.entries(transitions?.disallowed ?? {})) {
      note(from, `transitions.disallowed (key "${from}")`);
      targets.forEach((to, index) => {
        note(to, `transitions.disallowed.${from}[${index}]`);
        edges.get(from)?.delete(to);
      });
    }
  }

  const repeat = settings.allowRepeatSpeaker ?? true;
  if (repeat !== true) {
    const mayRepeat = new Set(repeat === false ? [] : repeat);
    if (Array.isArray(repeat)) repeat.forEach((name, index) => note(name, `allowRepeatSpeaker[${index}]`));
    for (const name of participants) if (!mayRepeat.has(name)) edges.get(name)?.delete(name);
  }

  const initial = initialSpeakers(participants, settings);
  initial.forEach((name, index) => note(name, `initialSpeaker[${index}]`));

  const states: Record<string, { on: Record<string, string> }> = {
    [START_STATE]: { on: Object.fromEntries(initial.filter((name) => known.has(name)).map((to) => [to, `#speakers.${to}`])) },
  };
  for (const from of participants) {
    states[from] = { on: Object.fromEntries([...(edges.get(from) ?? [])].map((to) => [to, `#speakers.${to}`])) };
  }
  const machine = createMachine({ id: 'speakers', initial: START_STATE, states });
  const readEligible = (state: string) => {
    const snapshot = machine.resolveState({ value: state, context: {} });
    return participants.filter((name) => snapshot.can({ type: name }));
  };
  // Read from the machine once per state (it never changes); each call gets its own copy.
  const eligible = new Map([START_STATE, ...participants].map((state) => [state, readEligible(state)]));

  return {
    machine,
    participants,
    unknownNames,
    eligibleAfter(last) {
      const state = last ?? START_STATE;
      return eligible.get(state)?.slice() ?? readEligible(state);
    },
  };
}

/** `allowed` or `disallowed` (not both), each mapping a participant to a list of names. */
function checkTransitionsShape(transitions: SpeakerTransitions | undefined): void {
  if (transitions === undefined) return;
  const { allowed, disallowed } = transitions as { allowed?: unknown; disallowed?: unknown };
  if ((allowed === undefined) === (disallowed === undefined)) {
    throw new ConfigurationError(
      `transitions takes exactly one of \`allowed\` or \`disallowed\` ({ allowed: { planner: ['researcher'] } }); got keys: ${Object.keys(transitions).join(', ') || 'none'}.`,
      { transitions },
    );
  }
  const [key, map] = allowed === undefined ? ['disallowed', disallowed] : ['allowed', allowed];
  const notLists = (got: unknown, from?: string) =>
    new ConfigurationError(
      `transitions.${key} maps each participant to a list of names ({ planner: ['researcher'] }); got ${JSON.stringify(got)}${from === undefined ? '' : ` for "${from}"`}.`,
      { transitions },
    );
  if (typeof map !== 'object' || map === null || Array.isArray(map)) throw notLists(map);
  for (const [from, targets] of Object.entries(map)) if (!Array.isArray(targets)) throw notLists(targets, from);
}

function initialSpeakers(participants: readonly string[], settings: TransitionSettings): readonly string[] {
  if (settings.initialSpeaker !== undefined) {
    return typeof settings.initialSpeaker === 'string' ? [settings.initialSpeaker] : settings.initialSpeaker;
  }
  if (settings.transitions === undefined) return participants;
  return participants.slice(0, 1);
}
