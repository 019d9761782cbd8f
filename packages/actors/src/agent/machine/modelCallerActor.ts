import { fromCallback } from 'xstate';
import { type CallModelCommand, modelCaller } from './modelCaller.js';

/**
 * The model caller as the agent's `model` child actor (see `modelCaller`):
 * an inspected run spawns it with its first model call, so that the
 * inspector sees every call as a command to it; a restored run gets it back
 * with its snapshot. Stopping the actor (the run ends, an abort) stops the
 * caller.
 */
export const modelCallerActor = fromCallback<CallModelCommand>(({ sendBack, receive }) => {
  const caller = modelCaller(sendBack);
  receive((command) => caller.call(command));
  return () => caller.stop();
});
