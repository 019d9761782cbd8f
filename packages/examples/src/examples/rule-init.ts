/** The init tool rule in action: `pnpm example rule-init`. See docs/tool-rules.md. */
import { runRuleScenario } from '../toolRules/ruleScenarios.js';

await runRuleScenario('init', { print: true });
