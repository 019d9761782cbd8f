export type { ToolAnnotations } from './toolAnnotations.js';
export type {
  NewStoredRun,
  RunLease,
  RunStore,
  StateDeltaWrite,
  StateWrite,
  StoredRun,
  StoredRunKind,
  StoredRunStatus,
  StoredRunSummary,
  StoredStateChain,
  ToolCallJournalEntry,
  ToolCallStart,
} from './runStore.js';
export type { JournalWrite, RunWriteBatch, RunWriteBatchResult } from './runStore.js';
export { RunLeaseLostError, RunOwnedElsewhereError, RunStoreError } from './runStoreErrors.js';
export { type StateDelta, type StateDeltaOp, applyStateDelta, diffState } from './stateDelta.js';
export {
  budgetSpent,
  remainingBudget,
  tighterBudget,
  tokenBudget,
  type TokenBudget,
  type TokenBudgetOption,
} from './tokenBudget.js';
export { checkPriceTable, costOf, type PriceTable } from './priceTable.js';
export type {
  ChatModel,
  ChatRequest,
  FinishReason,
  JsonSchema,
  ModelEvent,
  ResponseFormat,
  ToolChoice,
  ToolSpec,
} from './chatModel.js';
export type { MalformedReplyReason } from './chatModel.js';
export { DEFAULT_MAX_ANALYSIS_STATES } from './constants.js';
export {
  type AnyTool,
  defineTool,
  ONE_CALL_AT_A_TIME_NOTE,
  type Tool,
  type ToolDefinition,
  type ToolParameters,
} from './defineTool.js';
export {
  AbortedError,
  AgentchartError,
  ApprovalError,
  ConfigurationError,
  DuplicateToolError,
  ModelError,
  RunSnapshotError,
  ToolDefinitionError,
  ToolExposureError,
} from './errors.js';
export {
  type AssistantMessage,
  type Message,
  MessageSchema,
  msg,
  type SystemMessage,
  type ToolCall,
  ToolCallSchema,
  type ToolMessage,
  type Usage,
  type UserMessage,
} from './messages.js';
export type {
  FunctionInvocationContext,
  FunctionInvocationMetadata,
  FunctionMiddleware,
} from './middleware.js';
export { type ErrorInfo, type RunEvent, type RunEventOf, RunEventSchema, type StopReason } from './runEvents.js';
export {
  type SharedState,
  SharedStateError,
  type StateChange,
  type StateChangeSource,
  type StateRecord,
  typedState,
} from './sharedState.js';
export type { ApprovalContext, ToolApproval } from './toolApproval.js';
export { directToolContext, type ToolContext, type ToolsToAdd, type ToolsToRemove } from './toolContext.js';
export type { ToolProgress } from './toolContext.js';
export { InputAnswerError, type ToolInputAnswer, type ToolInputRequest } from './toolInput.js';
export { isToolError, ToolError } from './toolError.js';
export type { ToolMode, ToolModeSetting } from './toolMode.js';
export { toolResult, type ToolResultValue } from './toolResult.js';
export {
  type Deadlock,
  formatRulePath,
  type RulePathStep,
  type ToolRuleAnalysis,
  type ToolRuleWarning,
} from './toolRules/analyzeToolRules.js';
export {
  type CompiledToolRules,
  compileToolRules,
  type CompileToolRulesOptions,
} from './toolRules/compileToolRules.js';
export { type LettaToolRule, LettaToolRuleSchema } from './toolRules/lettaToolRules.js';
export { type ConditionalMatch, matchesConditionalKey } from './toolRules/matchConditionalOutput.js';
export { parseToolRules, type ToolRuleInput } from './toolRules/parseToolRules.js';
export { renderToolRulesPrompt } from './toolRules/renderToolRulesPrompt.js';
export { type ConditionalOptions, rules } from './toolRules/rules.js';
export { toMermaid } from './toolRules/toMermaid.js';
export {
  allowedTools,
  applyCall,
  applyOutput,
  approveCall,
  canEnd,
  explainBlockedCall,
  explainBlockedEnd,
  prefilledArgs,
  rejectCall,
  type RuleBlock,
} from './toolRules/toolRuleEngine.js';
export type { ToolRuleProgram } from './toolRules/toolRuleProgram.js';
export {
  type ChildRule,
  type ConditionalKey,
  type ConditionalRule,
  type InitRule,
  type MaxCountRule,
  type ParentRule,
  type ToolRule,
  type ToolRuleOf,
  ToolRuleSchema,
  type ToolRuleType,
} from './toolRules/toolRuleSchema.js';
export { ToolRulesError, type ToolRulesErrorCode } from './toolRules/toolRulesError.js';
export { callEvent, type ToolRulesEvent, type ToolRulesMachine } from './toolRules/toolRulesMachine.js';
export { type ConditionalBranch, initialToolRuleState, type ToolRuleState } from './toolRules/toolRuleState.js';
export { type ArgumentIssue, type ArgumentValidation, validateToolArguments } from './validateToolArguments.js';
export { REDACTED, type RedactionOptions, redactText, redactValue } from './redaction/redactSecrets.js';
export { registerSecrets } from './redaction/secretRegistry.js';
export type { UnnamedToolPolicy } from './toolRules/unnamedTools.js';
