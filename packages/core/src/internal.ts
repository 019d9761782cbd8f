/**
 * What the other agentchart packages share with core but users should not
 * build on: helpers of the run loop, the rule engine's machine builder, usage
 * arithmetic. No stability promise: it changes with any release. See
 * docs/packaging.md.
 */
export { asError } from './errors.js';
export { addUsage, zeroUsage } from './messages.js';
export { toErrorInfo } from './runEvents.js';
export { literalsAsEnums } from './toolJsonSchema.js';
export { ToolModeSettingSchema } from './toolMode.js';
export { TOOL_NAME_PATTERN } from './toolNames.js';
export { toolOutputText, toolOutputValue } from './toolResult.js';
export { applyEnd } from './toolRules/toolRuleEngine.js';
export { buildToolRuleProgram } from './toolRules/toolRuleProgram.js';
export { createToolRulesMachine } from './toolRules/toolRulesMachine.js';
export { argumentsToValidate, formatArgumentIssues } from './validateToolArguments.js';
