export {
  SHARED_STATE_SYSTEM_ID,
  sharedStateMachine,
  type SharedStateContext,
  type SharedStateInput,
  type SharedStateRef,
  type StateChangedEmitted,
  type StateWriteEvent,
} from './sharedStateMachine.js';
export { sharedStateHandle, type SharedStateHandle, type SharedStateHandleOptions } from './sharedStateHandle.js';
export { stateChangedEvent } from './stateChangedEvent.js';
