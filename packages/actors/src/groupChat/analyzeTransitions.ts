import { getShortestPaths } from 'xstate/graph';
import { START_STATE, type SpeakerGraph } from './compileTransitions.js';
import type { TransitionProblem } from './groupChatErrors.js';

/** What the analysis needs to know about a participant beside the graph. */
export interface ParticipantRoutes {
  name: string;
  /** Participants this one can hand off to (handoffs and afterWork naming a participant). */
  handoffTargets: readonly { to: string; where: string }[];
  /** True when its afterWork is `terminate`: a dead end is then intended. */
  endsChat: boolean;
}

/**
 * Finds what would make a chat stall or leave someone out, before any model
 * is called. Errors: names that are not participants, handoffs the
 * transitions do not allow. Warnings: speakers with no way out (the chat
 * would end there with `no-eligible-speaker`; reported with the shortest
 * sequence of speakers that reaches them) and participants that can never speak.
 *
 * @example
 * analyzeTransitions(compileTransitions(['a', 'b'], { transitions: { allowed: { a: ['b'] } } }), routes);
 * // [{ kind: 'no-way-out', participant: 'b', path: ['a', 'b'], ... }]
 */
export function analyzeTransitions(graph: SpeakerGraph, routes: readonly ParticipantRoutes[]): TransitionProblem[] {
  const problems: TransitionProblem[] = graph.unknownNames.map(({ name, where }) => ({
    kind: 'unknown-participant',
    severity: 'error',
    participant: name,
    message: `${where} names "${name}", who is not a participant (participants: ${graph.participants.join(', ')}).`,
  }));

  const pathTo = shortestPaths(graph);

  const byName = new Map(routes.map((route) => [route.name, route]));
  for (const name of graph.participants) {
    const path = pathTo.get(name);
    if (path === undefined) {
      problems.push({
        kind: 'never-speaks',
        severity: 'warning',
        participant: name,
        path: [...pathTo.keys()],
        message:
          `"${name}" can never speak: no sequence of allowed transitions from the start reaches it ` +
          `(the speakers that can speak are: ${[...pathTo.keys()].join(', ') || 'none'}). Allow a transition to it or make it an initial speaker.`,
      });
      continue;
    }
    const route = byName.get(name);
    if (graph.eligibleAfter(name).length === 0 && route?.endsChat !== true) {
      problems.push({
        kind: 'no-way-out',
        severity: 'warning',
        participant: name,
        path: [...path],
        message:
          `"${name}" has no way out: after ${path.join(' → ')} nobody may speak. ` +
          `Allow a transition from "${name}", or give it afterWork: 'terminate' if the chat should end there.`,
      });
    }
  }

  for (const route of routes) {
    const allowed = new Set(graph.eligibleAfter(route.name));
    for (const { to, where } of route.handoffTargets) {
      if (!graph.participants.includes(to)) {
        problems.push({
          kind: 'unknown-participant',
          severity: 'error',
          participant: to,
          message: `${where} names "${to}", who is not a participant (participants: ${graph.participants.join(', ')}).`,
        });
      } else if (!allowed.has(to)) {
        problems.push({
          kind: 'handoff-not-allowed',
          severity: 'error',
          participant: route.name,
          path: [route.name, to],
          message: `${where} hands off from "${route.name}" to "${to}", but the transitions do not allow "${route.name}" → "${to}".`,
        });
      }
    }
  }
  return problems;
}

/** The shortest paths of each graph, read once: graphs are shared by every chat of the same shape (`sharedSpeakerGraph`). */
const pathsByGraph = new WeakMap<SpeakerGraph, ReadonlyMap<string, readonly string[]>>();

/** The shortest sequence of speakers that reaches each speaker from the start. */
function shortestPaths(graph: SpeakerGraph): ReadonlyMap<string, readonly string[]> {
  let pathTo = pathsByGraph.get(graph);
  if (pathTo === undefined) {
    const paths = new Map<string, string[]>();
    const events = graph.participants.map((name) => ({ type: name }));
    for (const statePath of getShortestPaths(graph.machine, { events })) {
      const state = String(statePath.state.value);
      if (state !== START_STATE)
        paths.set(
          state,
          statePath.steps.slice(1).map((step) => step.event.type),
        );
    }
    pathTo = paths;
    pathsByGraph.set(graph, pathTo);
  }
  return pathTo;
}
