/** The terminal tool rule in action: `pnpm example rule-terminal`. See docs/tool-rules.md. */
import { runRuleScenario } from '../toolRules/ruleScenarios.js';

await runRuleScenario('terminal', { print: true });
