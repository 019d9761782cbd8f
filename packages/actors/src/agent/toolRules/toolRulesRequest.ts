import {
  type ChatRequest,
  type CompiledToolRules,
  type Message,
  type ToolRuleState,
  allowedTools,
  explainBlockedEnd,
  renderToolRulesPrompt,
} from '@agentchart/core';
import { unnamedToolBlock } from '@agentchart/core/internal';

/**
 * Narrows a model request to what the rules allow now: only allowed tools are
 * offered (never all tools when none is allowed); where a rule demands a call
 * the choice is `required`, or the tool itself when only one is allowed; and
 * the system prompt gets the rules section for the current state. Tools the
 * rules were not compiled with are offered only where the rules leave the
 * choice free (never with `unnamedTools: 'refuse'`).
 *
 * @example
 * applyToolRulesToRequest(request, compiled, state).toolChoice; // { type: 'tool', name: 'search' } under rules.init('search')
 */
export function applyToolRulesToRequest(request: ChatRequest, rules: CompiledToolRules, state: ToolRuleState): ChatRequest {
  const { program } = rules;
  const allowed = new Set(allowedTools(program, state));
  const tools = request.tools.filter((tool) =>
    program.toolSet.has(tool.name) ? allowed.has(tool.name) : unnamedToolBlock(program, state, rules.unnamedTools, tool.name) === null,
  );
  const mustCall = explainBlockedEnd(program, state) !== null;
  const requested = request.toolChoice;
  const forcedStillOffered = typeof requested === 'object' && tools.some((tool) => tool.name === requested.name);
  let toolChoice = requested;
  if (tools.length === 0) toolChoice = 'none';
  // The agent's own forced tool stays forced while the rules allow it: they only narrow.
  else if (forcedStillOffered) toolChoice = requested;
  else if (mustCall) toolChoice = tools.length === 1 ? { type: 'tool', name: (tools[0] as { name: string }).name } : 'required';
  else if (typeof requested === 'object') toolChoice = 'auto';
  return { ...request, tools, toolChoice, messages: withRulesSection(request.messages, renderToolRulesPrompt(program, state)) };
}

function withRulesSection(messages: readonly Message[], section: string): Message[] {
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${section}` }, ...rest];
  return [{ role: 'system', content: section }, ...messages];
}
