/** The required-before-exit tool rule in action: `pnpm example rule-required-before-exit`. See docs/tool-rules.md. */
import { runRuleScenario } from '../toolRules/ruleScenarios.js';

await runRuleScenario('required-before-exit', { print: true });
