/** The max-count tool rule in action: `pnpm example rule-max-count`. See docs/tool-rules.md. */
import { runRuleScenario } from '../toolRules/ruleScenarios.js';

await runRuleScenario('max-count', { print: true });
