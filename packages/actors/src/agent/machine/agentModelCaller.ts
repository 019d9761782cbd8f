import type { RunEvent } from '@agentchart/core';
import type { AnyActorRef, AnyEventObject } from 'xstate';
import type { AgentContext } from './agentContext.js';
import { type CallModelCommand, modelCaller } from './modelCaller.js';

/** What `withModelCaller` needs of XState's `enqueue`, and what it gives `runSteps`. */
interface ModelEnqueue {
  assign(patch: Partial<AgentContext>): void;
  emit(event: RunEvent): void;
  sendTo(to: string | AnyActorRef, event: AnyEventObject): void;
  spawnChild(src: 'modelCaller', options: { id: 'model' }): unknown;
}

/** What the steps write through (`runSteps`' enqueue). */
interface StepEnqueue {
  assign(patch: Partial<AgentContext>): void;
  emit(event: RunEvent): void;
  sendTo(childId: string, event: AnyEventObject): void;
}

/**
 * Routes a step's model call (docs/performance.md, "The model caller in the
 * agent"): to the run's `model` child when it has one (a restored run gets
 * one back with its snapshot); in an inspected run, to a `model` child
 * spawned with the first call, so that the inspector sees every call as a
 * command to it; otherwise to the run's own model caller, which sends the
 * agent what the child would (`model.reply`, `step.done`, ...). A run then
 * makes no actor for its model calls.
 *
 * The command still goes out as XState's `sendTo`: XState sends it after
 * the macrostep, once the agent's snapshot is updated and the events its
 * actions emitted are out, in order with them (`executeSendTo` defers the
 * send; `system._relay` hands it to the target's `_send`), which is where a
 * child's mailbox would take it.
 *
 * @example
 * startStep: enqueueActions(({ context, event, enqueue, self }) =>
 *   runSteps(context, event, withModelCaller(enqueue, self, context), agentSteps.startStep)),
 */
export function withModelCaller(enqueue: ModelEnqueue, self: AnyActorRef, context: AgentContext): StepEnqueue {
  return {
    assign: (patch) => enqueue.assign(patch),
    emit: (event) => enqueue.emit(event),
    sendTo: (childId, command) => {
      if (childId !== 'model' || (self.getSnapshot() as { children: Record<string, unknown> }).children.model !== undefined) {
        return enqueue.sendTo(childId, command);
      }
      if (context.runtime.inspected === true) {
        enqueue.spawnChild('modelCaller', { id: 'model' });
        return enqueue.sendTo('model', command);
      }
      const { fusedStep } = context.runtime;
      fusedStep.modelCaller ??= ownModelCaller(self);
      enqueue.sendTo(fusedStep.modelCaller as unknown as AnyActorRef, command);
    },
  };
}

/** The run's own model caller as the target of XState's deferred send (`_send`, the method its relay calls). */
export interface OwnModelCaller {
  _send(command: CallModelCommand): void;
}

/**
 * The run's own model caller: it sends the agent its events, and stops when
 * the agent ends or is stopped (as the child actor stopped with it).
 */
function ownModelCaller(self: AnyActorRef): OwnModelCaller {
  const caller = modelCaller((event) => self.send(event));
  const stop = () => caller.stop();
  self.subscribe({ complete: stop, error: stop });
  return { _send: (command) => caller.call(command) };
}
