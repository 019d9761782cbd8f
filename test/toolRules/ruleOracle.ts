import type { ToolRule } from '@agentchart/core';

/** One executed tool call, with what it returned (for conditional rules). */
export interface ExecutedCall {
  tool: string;
  output?: unknown;
  /** For tools with a requiresApproval rule: whether a person approved the call. */
  approved?: boolean;
}

/** How the run ended, as far as the rules care. */
export type Ending = 'final-answer' | 'terminal-tool' | 'failed' | 'cut-short';

/**
 * An independent reading of the rules, straight from their definitions: the
 * violations of an executed call sequence. Written apart from the engine so
 * that the property tests compare two implementations.
 */
export function ruleViolations(rules: readonly ToolRule[], executed: readonly ExecutedCall[], ending: Ending): string[] {
  const violations: string[] = [];
  const of = <T extends ToolRule['type']>(type: T) => rules.filter((rule): rule is Extract<ToolRule, { type: T }> => rule.type === type);
  const initTools = of('init').map((rule) => rule.tool);
  const terminal = new Set(of('terminal').map((rule) => rule.tool));
  const required = of('requiredBeforeExit').map((rule) => rule.tool);

  /** What the previous call demands of the next one: a set of allowed tools, or `failed`. */
  const demandAfter = (previous: ExecutedCall): { allowed: Set<string> | null; failed: boolean } => {
    let allowed: Set<string> | null = null;
    const narrow = (tools: readonly string[]) => {
      allowed = new Set(tools.filter((tool) => allowed === null || allowed.has(tool)));
    };
    for (const rule of of('child')) if (rule.tool === previous.tool) narrow(rule.children);
    for (const rule of of('conditional')) {
      if (rule.tool !== previous.tool) continue;
      const hit = rule.cases.find((entry) => keyMatches(entry.when, previous.output));
      if (hit) narrow([hit.then]);
      else if (rule.defaultChild !== undefined) narrow([rule.defaultChild]);
      else if (rule.requireMatch) return { allowed: new Set(), failed: true };
    }
    return { allowed, failed: false };
  };

  executed.forEach((call, index) => {
    const before = executed.slice(0, index);
    const at = `call ${index} (${call.tool})`;
    if (index === 0 && initTools.length > 0 && !initTools.includes(call.tool)) violations.push(`${at}: not an init tool`);
    const previous = before.at(-1);
    if (previous !== undefined) {
      if (terminal.has(previous.tool)) violations.push(`${at}: after terminal ${previous.tool}`);
      const demand = demandAfter(previous);
      if (demand.failed) violations.push(`${at}: after a failed conditional match`);
      else if (demand.allowed !== null && !demand.allowed.has(call.tool)) violations.push(`${at}: not allowed after ${previous.tool}`);
    }
    for (const rule of of('maxCount')) {
      if (rule.tool === call.tool && before.filter((b) => b.tool === call.tool).length >= rule.limit) {
        violations.push(`${at}: over max count ${rule.limit}`);
      }
    }
    for (const rule of of('parent')) {
      if (rule.children.includes(call.tool) && !before.some((b) => b.tool === rule.tool)) violations.push(`${at}: parent ${rule.tool} not called`);
    }
    if (terminal.has(call.tool)) {
      for (const tool of required) {
        if (tool !== call.tool && !before.some((b) => b.tool === tool)) violations.push(`${at}: terminal before required ${tool}`);
      }
    }
    if (of('requiresApproval').some((rule) => rule.tool === call.tool) && call.approved !== true) {
      violations.push(`${at}: ran without approval`);
    }
  });

  const last = executed.at(-1);
  if (ending === 'final-answer') {
    for (const tool of required) if (!executed.some((call) => call.tool === tool)) violations.push(`ended before required ${tool}`);
    if (last === undefined && initTools.length > 0) violations.push('ended before any init tool');
    if (last !== undefined) {
      if (of('continue').some((rule) => rule.tool === last.tool)) violations.push(`ended right after continue tool ${last.tool}`);
      const demand = demandAfter(last);
      if (demand.allowed !== null) violations.push(`ended right after ${last.tool}, which demands a next tool`);
    }
  }
  if (ending === 'terminal-tool' && (last === undefined || !terminal.has(last.tool))) violations.push('terminal-tool ending without a terminal tool');
  return violations;
}

/** Typed key matching, written from the documented semantics. */
function keyMatches(key: string | number | boolean, output: unknown): boolean {
  if (key === output) return true;
  if (typeof output === 'string') {
    if (typeof key === 'boolean') return output.trim().toLowerCase() === (key ? 'true' : 'false');
    if (typeof key === 'number') return output.trim() !== '' && Number(output) === key;
    return false;
  }
  if (typeof key === 'string' && (typeof output === 'number' || typeof output === 'boolean')) return `${output}` === key;
  return false;
}
