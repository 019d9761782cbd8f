/** The requires-approval tool rule in action: `pnpm example rule-requires-approval`. See docs/tool-rules.md. */
import { runRuleScenario } from '../toolRules/ruleScenarios.js';

await runRuleScenario('requires-approval', { print: true });
