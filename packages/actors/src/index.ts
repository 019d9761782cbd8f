export type { ToolCallRecord } from './agent/machine/agentContext.js';
export type { ToolOutcome } from './agent/machine/toolOutcome.js';
export { agentMachine } from './agent/machine/agentMachine.js';
export { managerMachine } from './groupChat/managerMachine.js';
export type { AgentRun } from './agent/run/agentRun.js';
export type { RunHandle } from './rootRun/runHandle.js';
export type { PendingInput } from './rootRun/inputRequests.js';
export type { ApprovalDecision, ApprovalRequest } from './agent/machine/approvals.js';
export type { Agent, AgentOptions, ResumeOptions, RunOptions } from './agent/agentTypes.js';
export { createAgent } from './facades/createAgent.js';
export { LiveToolSet, type ToolListChange } from './agent/tools/liveTools.js';
export type { RunResult } from './agent/run/runResult.js';
export type { PersistedRun } from './agent/run/runSnapshot.js';
export { isToolSource, type ToolSource } from './agent/tools/toolSource.js';
export { ToolSourceError } from './agent/tools/toolSourceError.js';
export { DEFAULT_MAX_CONSECUTIVE_ERRORS } from './constants.js';
export { compileTransitions, type SpeakerGraph } from './groupChat/compileTransitions.js';
export type { GroupChat } from './groupChat/configuredGroupChat.js';
export { createGroupChat } from './facades/createGroupChat.js';
export {
  ChatNotWaitingError,
  ChatSnapshotError,
  IneligibleSpeakerError,
  TransitionGraphError,
  type TransitionProblem,
  UnknownSpeakerError,
} from './groupChat/groupChatErrors.js';
export type {
  AfterWork,
  GroupChatResult,
  GroupChatRunOptions,
  Handoff,
  SelectionState,
  SelectSpeaker,
  SharedStateValues,
  SpeakerSelection,
  SpeakerTransitions,
  TerminateCondition,
} from './groupChat/groupChatTypes.js';
export type { ChatEvent, ChatEventOf, SelectionSource, TerminationReason } from './participant/chatEvent.js';
export type {
  ChatTurn,
  ChatWaiting,
  GroupChatSnapshot,
  PersistableWaiting,
  PersistedApprovalWaiting,
  PersistedDelegatedWaiting,
  PersistedNestedWaiting,
  PersistedParticipantWaiting,
} from './participant/chatWaiting.js';
export type { GroupChatMember, GroupChatOptions, MemberOptions, NestedChatParticipant, Participant } from './groupChat/groupChatOptions.js';
export type { GroupChatRun } from './groupChat/groupChatRun.js';
export { humanAgent, type HumanAgent } from './groupChat/humanAgent.js';
export type { CustomParticipant, ParticipantTurn, ParticipantTurnOptions } from './participant/customParticipant.js';
export type { InspectOption } from './inspection/inspectOption.js';
export { observeAllRuns, type ObservedRun, type RunObserver } from './inspection/runObservers.js';
export { reliableRunMachine } from './reliableTool/reliableRunMachine.js';
export {
  type FunctionSchema,
  reliableTool,
  type ReliableTool,
  type ReliableToolArgs,
  type ToolSchema,
  type ToolValue,
} from './reliableTool/reliableTool.js';
export type { AttemptOutcome, ReliableToolAttempt } from './reliableTool/reliableToolAttempt.js';
export { ReliableToolError, type ReliableToolErrorCode } from './reliableTool/reliableToolError.js';
export type {
  ReliableModelRole,
  ReliableRunCaller,
  ReliableToolEvent,
  ReliableToolEventOf,
} from './reliableTool/reliableToolEvents.js';
export type { ReliableToolOptions } from './reliableTool/reliableToolOptions.js';
export type { ReliableRunDetails, ReliableRunRequest } from './reliableTool/startReliableRun.js';
export { type ValidationResult, ValidationResultSchema } from './reliableTool/validationResult.js';
export {
  sharedStateHandle,
  type SharedStateHandle,
  type SharedStateHandleOptions,
} from './sharedState/sharedStateHandle.js';
export {
  SHARED_STATE_SYSTEM_ID,
  type SharedStateContext,
  type SharedStateInput,
  sharedStateMachine,
  type SharedStateRef,
  type StateChangedEmitted,
  type StateWriteEvent,
} from './sharedState/sharedStateMachine.js';
export { DEFAULT_LEASE_MS } from './durable/leaseDefaults.js';
export type { StoreOptions } from './storeOptions.js';
export { type DurableRun, persistRunToStore, startRunInStore, resumeRunFromStore } from './durable/storedRuns.js';
export { type PendingResumes, type ResumePendingOptions, resumePending } from './durable/resumePending.js';
export { type ChatStoreOptions, type DurableChat, resumeChatFromStore, startChatInStore } from './durable/storedChats.js';
export type { RecordResultOptions } from './durable/recordedResult.js';
