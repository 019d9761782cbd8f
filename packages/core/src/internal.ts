/**
 * What the other agentchart packages share with core but users should not
 * build on: helpers of the run loop, the rule engine's machine builder and
 * blocking rule, usage arithmetic, redaction and own-key helpers, and what the
 * test suite checks the engine with. No stability promise: it changes with any
 * release. See docs/packaging.md.
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
export { argumentsToValidate, formatArgumentIssues, validateToolArgumentsNow } from './validateToolArguments.js';
export { getOwn, ownRecord, setOwn } from './ownKeys.js';
export { isSecretKey, redactKnownSecrets } from './redaction/redactSecrets.js';
export { isSecretKeyName } from './redaction/secretKeyNames.js';
export { MIN_REGISTERED_SECRET_LENGTH, registeredSecrets } from './redaction/secretRegistry.js';
export { containsSecretShape } from './redaction/secretShapes.js';
export { unnamedToolBlock } from './toolRules/unnamedTools.js';
export { StopReasonSchema } from './runEvents.js';
export { restoreOptionalNulls, toParametersJsonSchema } from './toolJsonSchema.js';
export { blockingRule } from './toolRules/toolRuleEngine.js';
export { toolStateKey } from './toolRules/toolRulesMachine.js';
export { ErrorInfoSchema } from './runEvents.js';
export { UsageSchema } from './messages.js';
export { RULE_STATES } from './toolRules/toolRulesMachine.js';
export { checkToolProgress } from './toolContext.js';
export { MAX_EXPORTED_NAME_LENGTH } from './constants.js';
export { cutText, exportedName } from './redaction/exportedName.js';
export { setToolCallTraceContext, toolCallTraceContext } from './toolCallTrace.js';
