import type { ToolRuleState } from '@agentchart/core';
import { RULE_STATES } from '@agentchart/core/internal';
import { toolStateKey } from '@agentchart/core/internal';

const idle = { status: 'active', output: undefined, error: undefined, input: undefined };

/**
 * The agent machine's children for a restored waiting run, built from
 * checked data only: the run's own shared state (absent for a run that uses
 * a group chat's), an idle model caller and tool runner, and the rule
 * machine in the state its (re-derived) context names.
 */
export function rebuildChildren(
  sharedState: { values: Record<string, unknown>; version: number } | undefined,
  rules: ToolRuleState | undefined,
): Record<string, unknown> {
  const children: Record<string, unknown> = {
    model: { src: 'modelCaller', snapshot: idle, syncSnapshot: false },
    toolRunner: { src: 'toolRunner', snapshot: idle, syncSnapshot: false },
  };
  if (sharedState !== undefined) {
    children.sharedState = {
      src: 'sharedState',
      systemId: 'sharedState',
      snapshot: {
        status: 'active',
        value: {},
        historyValue: {},
        context: { values: sharedState.values, version: sharedState.version },
        children: {},
      },
    };
  }
  if (rules !== undefined) {
    children.toolRules = {
      src: 'toolRules',
      syncSnapshot: false,
      snapshot: { status: 'active', value: ruleMachineState(rules), historyValue: {}, context: rules, children: {} },
    };
  }
  return children;
}

/** The rule machine's state for a rule context. */
function ruleMachineState(rules: ToolRuleState): string {
  if (rules.phase === 'done') return RULE_STATES.done;
  if (rules.phase === 'failed') return RULE_STATES.failed;
  if (rules.awaitingApproval !== null) return RULE_STATES.awaitingApproval;
  return rules.last === null ? RULE_STATES.start : toolStateKey(rules.last);
}
