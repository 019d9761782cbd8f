/** The child tool rule in action: `pnpm example rule-child`. See docs/tool-rules.md. */
import { runRuleScenario } from '../toolRules/ruleScenarios.js';

await runRuleScenario('child', { print: true });
