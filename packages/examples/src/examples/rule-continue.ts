/** The continue tool rule in action: `pnpm example rule-continue`. See docs/tool-rules.md. */
import { runRuleScenario } from '../toolRules/ruleScenarios.js';

await runRuleScenario('continue', { print: true });
