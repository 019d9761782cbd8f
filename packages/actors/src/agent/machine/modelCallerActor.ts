import { fromCallback } from 'xstate';
import { type CallModelCommand, modelCaller } from './modelCaller.js';

/**
 * The model caller as the agent's resident `model` child actor (see
 * `modelCaller`): spawned with the run, it takes a `model.call` command per
 * step and sends the agent the reply. Stopping the actor (the run ends, an
 * abort) stops the caller.
 */
export const modelCallerActor = fromCallback<CallModelCommand>(({ sendBack, receive }) => {
  const caller = modelCaller(sendBack);
  receive((command) => caller.call(command));
  return () => caller.stop();
});
