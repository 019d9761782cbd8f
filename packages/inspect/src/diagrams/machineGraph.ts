import type { AnyStateMachine, AnyStateNode } from 'xstate';
import { exploreEdges } from './exploreEdges.js';
import type { GraphEdge } from './graphEdge.js';

/** One state of a machine, as plain data. `id` is XState's state-node id (`agent.thinking`). */
export interface GraphNode {
  id: string;
  /** The state's own name (`thinking`); the machine id for the root. */
  key: string;
  /** The enclosing state's id; absent on the root. */
  parent?: string;
  type: 'atomic' | 'compound' | 'parallel' | 'final' | 'history';
  /** For compound states: the id of the initial child. */
  initial?: string;
  /** The `src` of the actors the state invokes (`callModel`). */
  invokes: string[];
  description?: string;
}

/** A machine as a graph of plain data: what diagrams and the live view draw. */
export interface MachineGraph {
  /** The machine's id (`agent`, the root node's id). */
  id: string;
  nodes: GraphNode[];
  edges: GraphEdge[];
}

/** How `machineGraph` finds transitions. */
export interface MachineGraphOptions {
  /**
   * `static` reads the transitions as written; `explore` runs the machine and
   * draws the moves it can make (see `exploreEdges`); `auto` (default)
   * explores machines whose guarded transitions sit on the root ("any
   * state"), as tool-rule machines do, and reads the others.
   */
  transitions?: 'auto' | 'static' | 'explore';
}

/**
 * Reads a machine's states and transitions (eventless and invoke-done ones
 * included) into plain data.
 *
 * @example
 * const graph = machineGraph(agentMachine);
 * graph.nodes.map((node) => node.key); // ['agent', 'idle', 'thinking', …]
 */
export function machineGraph(machine: AnyStateMachine, options: MachineGraphOptions = {}): MachineGraph {
  const nodes: GraphNode[] = [];
  const edges: GraphEdge[] = [];
  const visit = (node: AnyStateNode) => {
    nodes.push(describeNode(node));
    edges.push(...describeEdges(node));
    for (const child of Object.values(node.states) as AnyStateNode[]) visit(child);
  };
  visit(machine.root);
  const mode = options.transitions ?? 'auto';
  const rootGuarded = edges.some((edge) => edge.source === machine.root.id && edge.guard !== undefined);
  if (mode === 'explore' || (mode === 'auto' && rootGuarded)) {
    const explored = exploreEdges(machine);
    if (explored) return { id: machine.root.id, nodes, edges: explored };
  }
  return { id: machine.root.id, nodes, edges };
}

function describeNode(node: AnyStateNode): GraphNode {
  const result: GraphNode = {
    id: node.id,
    key: node.parent ? node.key : node.id,
    type: node.type,
    invokes: node.invoke.map((invoke) => (typeof invoke.src === 'string' ? invoke.src : invoke.id)),
  };
  if (node.parent) result.parent = node.parent.id;
  const initialTarget = node.initial?.target[0] as AnyStateNode | undefined;
  if (node.type === 'compound' && initialTarget) result.initial = initialTarget.id;
  if (node.description) result.description = node.description;
  return result;
}

function describeEdges(node: AnyStateNode): GraphEdge[] {
  const invokeSources = new Map<string, string>(node.invoke.map((invoke) => [invoke.id, typeof invoke.src === 'string' ? invoke.src : invoke.id]));
  const transitions = [...[...node.transitions.values()].flat(), ...(node.always ?? [])];
  return transitions.flatMap((transition) => {
    const targets = (transition.target ?? [node]) as AnyStateNode[];
    const guard = guardName(transition.guard);
    return targets.map((target) => {
      const edge: GraphEdge = {
        source: node.id,
        target: target.id,
        event: transition.eventType,
        label: eventLabel(transition.eventType, invokeSources),
      };
      if (guard) edge.guard = guard;
      if (transition.target === undefined) edge.internal = true;
      return edge;
    });
  });
}

function eventLabel(eventType: string, invokeSources: ReadonlyMap<string, string>): string {
  if (eventType === '') return 'always';
  const done = /^xstate\.(done|error)\.actor\.(.+)$/.exec(eventType);
  if (done) return `${invokeSources.get(done[2] as string) ?? done[2]} ${done[1]}`;
  return eventType;
}

function guardName(guard: unknown): string | undefined {
  if (guard === undefined || guard === null) return undefined;
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') return guard.name || 'guard';
  if (typeof guard === 'object' && 'type' in guard && typeof guard.type === 'string') {
    const params = 'params' in guard ? staticParams(guard.params) : undefined;
    return params === undefined ? guard.type : `${guard.type}(${params})`;
  }
  return 'guard';
}

/** A guard's params written in the machine (`{ state: 'agent' }` → `agent`), so one guard's transitions are told apart; none for params computed at run time. */
function staticParams(params: unknown): string | undefined {
  if (params === null || typeof params !== 'object') return undefined;
  const values = Object.values(params);
  if (values.length === 0 || !values.every((value) => ['string', 'number', 'boolean'].includes(typeof value))) return undefined;
  return values.map(String).join(', ');
}
