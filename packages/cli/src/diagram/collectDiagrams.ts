import { readFile } from 'node:fs/promises';
import { compileToolRules, parseToolRules } from '@agentchart/core';
import { type MachineGraph, machineGraph, memorySink, parseTrace } from '@agentchart/inspect';
import { type AnyStateMachine, createMachine } from 'xstate';
import type { ExampleSource } from '../command.js';
import { notAScript, resolveScript } from '../watch/resolveScript.js';
import { watchModule } from '../watch/watchModule.js';

/** A machine to draw, under the key it has in traces (`agent`, `toolRules`). */
export interface NamedGraph {
  key: string;
  graph: MachineGraph;
}

/**
 * Finds the machines a file holds:
 * - `.ndjson`: a trace — the machines it recorded;
 * - `.json`: tool rules (a list, Letta's JSON or ours, or `{ tools, rules }`),
 *   an XState config (`{ states }`) or a machine graph (`{ nodes, edges }`);
 * - a script (or an example's name, given `examples`): the machines of
 *   every run it starts, and the machines, compiled rules and agents it exports.
 *
 * @example
 * await collectDiagrams('./team.mjs'); // [{ key: 'agent', … }, { key: 'toolRules', … }]
 */
export async function collectDiagrams(
  target: string,
  options: { examples?: ExampleSource | undefined; loadsTypeScript?: boolean } = {},
): Promise<NamedGraph[]> {
  if (target.endsWith('.ndjson')) return fromTrace(await readFile(target, 'utf8'));
  if (target.endsWith('.json')) return fromJson(JSON.parse(await readFile(target, 'utf8')) as unknown, target);
  const moduleUrl = resolveScript(target, options.examples);
  if (!moduleUrl) throw new Error(notAScript(target, 'a trace (.ndjson), a JSON file nor a script', options.examples));
  const sink = memorySink();
  const { exports } = await watchModule(moduleUrl, { sink, title: target, output: 'none', loadsTypeScript: options.loadsTypeScript ?? false });
  const found = fromTrace(sink.toNdjson());
  for (const [name, value] of Object.entries(exports)) {
    const machine = machineIn(value);
    if (machine && !found.some((entry) => entry.graph.id === machine.id)) found.push({ key: name, graph: machineGraph(machine) });
  }
  return found;
}

/** The machines a trace recorded, except those without states of their own (shared state): nothing to draw. */
function fromTrace(text: string): NamedGraph[] {
  return parseTrace(text).entries.flatMap((entry) =>
    entry.kind === 'machine' && entry.graph.nodes.length > 1 ? [{ key: entry.machine, graph: entry.graph }] : [],
  );
}

function fromJson(value: unknown, file: string): NamedGraph[] {
  if (Array.isArray(value)) return [{ key: 'toolRules', graph: rulesGraph(value, undefined) }];
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    if (Array.isArray(record.rules)) {
      const tools = Array.isArray(record.tools) ? record.tools.map(String) : undefined;
      return [{ key: 'toolRules', graph: rulesGraph(record.rules, tools) }];
    }
    if (Array.isArray(record.nodes) && Array.isArray(record.edges))
      return [{ key: String(record.id ?? 'machine'), graph: record as unknown as MachineGraph }];
    if (typeof record.states === 'object') {
      const machine = createMachine(record as Parameters<typeof createMachine>[0]);
      return [{ key: machine.id, graph: machineGraph(machine) }];
    }
  }
  throw new Error(`${file} holds neither tool rules, an XState config ({ states }) nor a machine graph ({ nodes, edges }).`);
}

/** Compiles tool rules; without a tool list, the tools are the ones the rules name. */
function rulesGraph(input: readonly unknown[], tools: readonly string[] | undefined): MachineGraph {
  const names = tools ?? toolsNamedBy(parseToolRules(input));
  return machineGraph(compileToolRules(input, names).machine);
}

function toolsNamedBy(rules: ReturnType<typeof parseToolRules>): string[] {
  const names = new Set<string>();
  for (const rule of rules) {
    names.add(rule.tool);
    if ('children' in rule) for (const child of rule.children) names.add(child);
    if (rule.type === 'conditional') {
      for (const entry of rule.cases) names.add(entry.then);
      if (rule.defaultChild) names.add(rule.defaultChild);
    }
  }
  return [...names];
}

/** A machine, compiled rules (`.machine`), an agent with rules (`.toolRules.machine`) or a group chat (`.transitions`). */
function machineIn(value: unknown): AnyStateMachine | undefined {
  const isMachine = (candidate: unknown): candidate is AnyStateMachine =>
    typeof candidate === 'object' && candidate !== null && 'root' in candidate && 'config' in candidate && 'transition' in candidate;
  if (isMachine(value)) return value;
  if (typeof value !== 'object' || value === null) return undefined;
  const record = value as { machine?: unknown; toolRules?: { machine?: unknown }; transitions?: unknown };
  if (isMachine(record.machine)) return record.machine;
  if (isMachine(record.toolRules?.machine)) return record.toolRules.machine;
  if (isMachine(record.transitions)) return record.transitions;
  return undefined;
}
