export * from './messages.js';
export * from './errors.js';
export * from './chatModel.js';
export * from './toolNames.js';
export * from './toolContext.js';
export * from './toolApproval.js';
export * from './toolMode.js';
export * from './middleware.js';
export * from './sharedState.js';
export * from './toolError.js';
export * from './toolResult.js';
export * from './defineTool.js';
export * from './toolJsonSchema.js';
export * from './validateToolArguments.js';
export * from './runEvents.js';
export * from './constants.js';
export * from './toolRules/index.js';
export type { ToolAnnotations } from './toolAnnotations.js';
export {
  type NewStoredRun,
  type RunLease,
  type RunStore,
  type StateWrite,
  type StoredRun,
  type StoredRunKind,
  type StoredRunStatus,
  type StoredRunSummary,
  type ToolCallJournalEntry,
  type ToolCallStart,
} from './runStore.js';
export { RunLeaseLostError, RunOwnedElsewhereError, RunStoreError } from './runStoreErrors.js';
export {
  budgetSpent,
  remainingBudget,
  tighterBudget,
  tokenBudget,
  type TokenBudget,
  type TokenBudgetOption,
} from './tokenBudget.js';
export { checkPriceTable, costOf, type PriceTable } from './priceTable.js';
export { getOwn, ownRecord, setOwn } from './ownKeys.js';
export {
  MIN_REGISTERED_SECRET_LENGTH,
  REDACTED,
  type RedactionOptions,
  containsSecretShape,
  isSecretKey,
  isSecretKeyName,
  redactKnownSecrets,
  redactSecretShapes,
  redactText,
  redactValue,
  registerSecrets,
  registeredSecrets,
} from './redaction/index.js';
