/**
 * Letta's JSON tool rules, carried over as they are: compiled, analysed and
 * shown as a statechart. `pnpm example rules-letta-json`
 */
import { ToolRulesError, compileToolRules, toMermaid } from '@agentchart/core';

const tools = ['search', 'read', 'check', 'send_message'];
const lettaRules = [
  { type: 'run_first', tool_name: 'search', prompt_template: null },
  { type: 'constrain_child_tools', tool_name: 'search', children: ['read', 'check'] },
  { type: 'conditional', tool_name: 'check', child_output_mapping: { true: 'send_message', false: 'search' }, default_child: 'read' },
  { type: 'max_count_per_step', tool_name: 'search', max_count_limit: 3 },
  { type: 'required_before_exit', tool_name: 'read' },
  { type: 'exit_loop', tool_name: 'send_message' },
];

try {
  compileToolRules(lettaRules, tools);
} catch (error) {
  if (!(error instanceof ToolRulesError)) throw error;
  console.log(`Rejected before any model call (${error.code}):\n  ${error.message}\n`);
}

// The fix: `check` only once `read` has run (so `send_message` is reachable), and after a
// failed check read more instead of searching again (so the search count cannot trap the run).
const fixed = [
  ...lettaRules.map((rule) => (rule.type === 'conditional' ? { ...rule, child_output_mapping: { true: 'send_message', false: 'read' } } : rule)),
  { type: 'parent_last_tool', tool_name: 'read', children: ['check'] },
];
const compiled = compileToolRules(fixed, tools);
console.log(`Compiled: ${compiled.analysis.states} reachable rule states explored, warnings: ${compiled.warnings.length}.\n`);
console.log('Mermaid (paste into https://mermaid.live):\n');
console.log(toMermaid(compiled.program));
console.log('\nXState config (paste into the Stately editor):\n');
console.log(JSON.stringify(compiled.machineConfig(), null, 2).split('\n').slice(0, 12).join('\n'), '\n  …');
