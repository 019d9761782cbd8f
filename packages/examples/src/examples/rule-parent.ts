/** The parent tool rule in action: `pnpm example rule-parent`. See docs/tool-rules.md. */
import { runRuleScenario } from '../toolRules/ruleScenarios.js';

await runRuleScenario('parent', { print: true });
