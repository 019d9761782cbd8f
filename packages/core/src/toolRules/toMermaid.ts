import type { ToolRuleProgram } from './toolRuleProgram.js';

/** The label of the run ending with a final answer: words no tool name can be (tool names have no spaces). */
const FINAL_ANSWER = 'final answer';

/**
 * The rules as a Mermaid state diagram: `start`, a state per tool (the last
 * tool called) and `done`; an edge wherever some rule state allows the call
 * (a tool allowed right after itself is a self-loop), and `final answer`
 * where the run may end with an answer, so it never reads as a tool call.
 * Guards that need memory (parents, counts, required-before-exit) are noted
 * on the tool's state.
 *
 * @example
 * console.log(toMermaid(compileToolRules([rules.init('a'), rules.terminal('b')], ['a', 'b']).program));
 */
export function toMermaid(program: ToolRuleProgram): string {
  const id = stateIds(program.tools);
  const lines = ['stateDiagram-v2', '  state "start" as start'];
  for (const tool of program.tools) if (!program.terminal.has(tool)) lines.push(`  state "${tool}" as ${id(tool)}`);
  const edge = (from: string, tool: string, label?: string) =>
    lines.push(`  ${from} --> ${program.terminal.has(tool) ? 'done' : id(tool)}: ${label ?? tool}`);

  for (const tool of program.initTools ?? program.tools) edge('start', tool);
  for (const from of program.tools) {
    if (program.terminal.has(from)) continue;
    const conditional = program.conditional.get(from);
    const children = program.children.get(from);
    if (conditional) {
      for (const entry of conditional.cases) edge(id(from), entry.then, `${entry.then} [output ${JSON.stringify(entry.when)}]`);
      if (conditional.defaultChild) edge(id(from), conditional.defaultChild, `${conditional.defaultChild} [no match]`);
      else if (conditional.requireMatch) lines.push(`  ${id(from)} --> failed: [no match]`);
      else for (const tool of children ?? program.tools) edge(id(from), tool, `${tool} [no match]`);
    } else {
      for (const tool of children ?? program.tools) edge(id(from), tool);
    }
    // The run may end by an answer unless a child rule, a picked conditional branch or a continue rule demands a call.
    const openBranch = conditional !== undefined && conditional.defaultChild === undefined && !conditional.requireMatch;
    if (!children && (!conditional || openBranch) && !program.continueTools.has(from)) {
      lines.push(`  ${id(from)} --> done: ${conditional ? `${FINAL_ANSWER} [no match]` : FINAL_ANSWER}`);
    }
  }
  if (program.initTools === null) lines.push(`  start --> done: ${FINAL_ANSWER}`);
  lines.push('  [*] --> start', '  done --> [*]');
  for (const tool of program.tools) {
    const notes: string[] = [];
    const parents = program.parentsOf.get(tool);
    if (parents) notes.push(`only after ${parents.join(', ')}`);
    const limit = program.limits.get(tool);
    if (limit !== undefined) notes.push(`at most ${limit}×`);
    if (program.terminal.has(tool) && program.required.some((required) => required !== tool)) {
      notes.push(`needs ${program.required.filter((required) => required !== tool).join(', ')} first`);
    }
    if (program.requiresApproval.has(tool)) notes.push('needs approval');
    if (program.required.includes(tool)) notes.push('required before exit');
    if (notes.length > 0 && !program.terminal.has(tool)) lines.push(`  note right of ${id(tool)}: ${notes.join('; ')}`);
    else if (notes.length > 0) lines.push(`  %% ${tool}: ${notes.join('; ')}`);
  }
  return lines.join('\n');
}

/** Mermaid state ids per tool: `t_<name>` with other characters as `_`, numbered where two names would collide. */
function stateIds(tools: readonly string[]): (tool: string) => string {
  const ids = new Map<string, string>();
  const taken = new Set<string>();
  for (const tool of tools) {
    const base = `t_${tool.replace(/[^a-zA-Z0-9_]/g, '_')}`;
    let candidate = base;
    for (let n = 2; taken.has(candidate); n++) candidate = `${base}_${n}`;
    taken.add(candidate);
    ids.set(tool, candidate);
  }
  return (tool) => ids.get(tool) as string;
}
