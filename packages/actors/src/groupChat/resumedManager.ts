import { type Actor, type SnapshotFrom, createActor } from 'xstate';
import type { InspectOption } from '../inspection/inspectOption.js';
import { SHARED_STATE_SYSTEM_ID } from '../sharedState/sharedStateMachine.js';
import { SharedStateSlot } from '../sharedState/sharedStateSlot.js';
import { type ManagerInput, initialManagerContext, managerMachine } from './managerMachine.js';
import { agentChildId } from './residentAgents.js';

/**
 * A chat run's manager actor on `input`, not started. A chat resumed in its
 * speaking agent's turn is restored from `resumedManagerSnapshot`, any other
 * from its input.
 *
 * @example
 * const manager = createManagerActor(input, inspect);
 */
export function createManagerActor(input: ManagerInput, inspect: InspectOption | undefined): Actor<typeof managerMachine> {
  const resumed = resumedManagerSnapshot(input);
  if (resumed === undefined) return createActor(managerMachine, { input, inspect });
  const manager = createActor(managerMachine, { snapshot: resumed.snapshot, input, inspect });
  resumed.sharedState.adopt(manager);
  return manager;
}

/**
 * The manager's snapshot a chat resumed in its speaking agent's turn starts
 * from, made with XState's own restoring: the manager in `idle`, with the
 * context its input gives at any start, and the agent's persisted run as its
 * child `agent:<name>` (XState restores a machine's children from its
 * snapshot, each from its logic, the agent's machine). The `start` command
 * then walks `idle → speaking.agent` as for any resumed chat, and the turn
 * goes on with that child. The chat's shared state is not the agent's child:
 * its slot goes into the agent's context, its actor made on first use as a
 * child of the manager (`SharedStateSlot.adopt`). `undefined` for any other
 * run.
 *
 * @example
 * const resumed = resumedManagerSnapshot(input); // { snapshot: { value: 'idle', children: { 'agent:cleaner': … } }, sharedState }
 */
export function resumedManagerSnapshot(
  input: ManagerInput,
): { snapshot: SnapshotFrom<typeof managerMachine>; sharedState: SharedStateSlot } | undefined {
  const resume = input.resumeWaiting;
  if (resume?.into !== 'agent') return undefined;
  const member = input.runtime.members.get(resume.speaker);
  if (member?.kind !== 'agent') return undefined;
  const sharedState = SharedStateSlot.ownerToCome(input.sharedState, SHARED_STATE_SYSTEM_ID);
  const context = initialManagerContext(input, sharedState);
  const run = resume.run.snapshot;
  const agent = { ...run, context: { ...run.context, sharedState } };
  const snapshot = {
    status: 'active',
    value: 'idle',
    historyValue: {},
    context,
    children: { [agentChildId(member.name)]: { src: member.turn.machine, snapshot: agent, syncSnapshot: false } },
  };
  return { snapshot: snapshot as unknown as SnapshotFrom<typeof managerMachine>, sharedState };
}
