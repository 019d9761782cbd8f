import { type RuleScenarioName, ruleScenarios, runRuleScenario } from '@agentchart/examples';
import { describe, expect, it } from 'vitest';

describe('the tool-rule examples (pnpm example rule-<family>)', () => {
  for (const name of Object.keys(ruleScenarios) as RuleScenarioName[]) {
    it(`rule-${name} ends as its scenario says`, async () => {
      expect(await runRuleScenario(name)).toEqual(ruleScenarios[name].expected);
    });
  }
});
