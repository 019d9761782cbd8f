export { reliableTool, type ReliableTool, type ReliableToolArgs, type ToolValue, type ToolSchema, type FunctionSchema } from './reliableTool.js';
export type { ReliableToolOptions } from './reliableToolOptions.js';
export type { ReliableRunRequest, ReliableRunDetails } from './startReliableRun.js';
export type { ReliableToolAttempt, AttemptOutcome } from './reliableToolAttempt.js';
export type { ReliableToolEvent, ReliableToolEventOf } from './reliableToolEvents.js';
export type { ReliableModelRole, ReliableRunCaller } from './reliableToolEvents.js';
export { ReliableToolError, type ReliableToolErrorCode } from './reliableToolError.js';
export { ValidationResultSchema, type ValidationResult, parseValidationReply } from './validationResult.js';
export { reliableRunMachine } from './reliableRunMachine.js';
