/** The conditional tool rule in action: `pnpm example rule-conditional`. See docs/tool-rules.md. */
import { runRuleScenario } from '../toolRules/ruleScenarios.js';

await runRuleScenario('conditional', { print: true });
