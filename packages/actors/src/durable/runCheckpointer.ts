import { RUN_SNAPSHOT_VERSION } from '../constants.js';
import { type AgentContext, EMPTY_DRAFT } from '../agent/machine/agentContext.js';
import type { RunCheckpoints } from '../agent/machine/agentContext.js';
import { type PersistedRun, type PersistedTokenBudget, persistedTokenBudget } from '../agent/run/runSnapshot.js';
import type { CheckpointState, PersistedMachine } from '../agent/run/runSnapshotSchema.js';
import { type SnapshotKey, signSnapshot } from '../agent/run/snapshotSignature.js';
import type { CheckpointSeal } from './checkpointSeal.js';
import type { RunWriter } from './runWriter.js';

/** What a checkpoint keeps of the context at the moment it was taken (the step goes on changing its copy). */
interface FrozenCheckpoint {
  value: CheckpointState;
  agent: string;
  liveTools: string[];
  toolChanges: ReturnType<AgentContext['runtime']['liveTools']['changeLog']>;
  data: Omit<AgentContext, 'runtime' | 'sharedState'>;
  sharedStateId: string;
  /** The run's token budget, as the snapshot keeps it. */
  maxTokens: PersistedTokenBudget | undefined;
  /** The run's own shared state; absent for a run in a group chat (the chat's is stored with the chat). */
  shared: { values: Record<string, unknown>; version: number } | undefined;
}

/**
 * The checkpoint hooks of a run kept in a store: each checkpoint point
 * freezes the context (a shallow copy: the steps replace, never mutate, what
 * they change) and queues its snapshot on the run's writer, built only when
 * written (and signed by the writer's chain). After a model reply: the batch before screening
 * (`batchReady`), or, with no calls, the run before its next model call
 * (`stepDone`); a batch about to run, decided (`acting`); a batch's results
 * appended (`stepDone`, unless the run ends right after: its end is written
 * instead); a wait for approval (`awaitingApproval`, status `waiting`).
 *
 * @example
 * const runtime = agentRuntime(config, { liveTools, middleware, checkpoints: storeCheckpoints(writer, config.snapshotKey) });
 */
export function storeCheckpoints(writer: RunWriter, snapshotKey: SnapshotKey | undefined): RunCheckpoints {
  return checkpointHooks(
    (context, value) => {
      const frozen = freezeCheckpoint(context, value);
      writer.checkpoint(value === 'awaitingApproval' ? 'waiting' : 'running', (journal) =>
        storedCheckpoint(frozen, snapshotKey !== undefined, journal),
      );
    },
    () => writer.idle(),
  );
}

/** The four checkpoint points, each saved at the state it resumes from (see `storeCheckpoints`). */
export function checkpointHooks(save: (context: AgentContext, value: CheckpointState) => void, written?: () => Promise<void>): RunCheckpoints {
  return {
    ...(written === undefined ? {} : { written }),
    modelReply: (context) => save(context, context.batch.calls.length > 0 ? 'batchReady' : 'stepDone'),
    batchStart: (context) => save(context, 'acting'),
    batchEnd: (context) => {
      if (context.endedBy === undefined && context.error === undefined) save(context, 'stepDone');
    },
    waiting: (context) => save(context, 'awaitingApproval'),
  };
}

/** Freezes what a checkpoint of `context` at `value` needs, synchronously. */
export function freezeCheckpoint(context: AgentContext, value: CheckpointState, ownSharedState = true): FrozenCheckpoint {
  const { runtime, sharedState, ...data } = context;
  if (value === 'stepDone') data.draft = EMPTY_DRAFT; // the next model call starts a new one
  return {
    value,
    agent: runtime.agentName,
    liveTools: runtime.liveTools.names(),
    toolChanges: runtime.liveTools.changeLog(),
    data,
    maxTokens: persistedTokenBudget(runtime.tokenBudget),
    sharedStateId: sharedState.persistedId(),
    shared: ownSharedState ? sharedState.persistedContext() : undefined,
  };
}

/**
 * The stored snapshot of a frozen checkpoint, unsigned: the format
 * `agent.resume` reads, with its seal (its row and the `journal` entries it
 * relies on, see `checkpointSeal.ts`) when the run signs (`sealed`). It
 * shares what the context did not replace since the last checkpoint, so the
 * writer's chain finds the delta by reference.
 */
export function storedCheckpoint(frozen: FrozenCheckpoint, sealed: boolean, journal?: CheckpointSeal['journal']): PersistedRun {
  const run = unsignedSnapshot(frozen);
  if (!sealed || journal === undefined) return run;
  const seal: CheckpointSeal = { row: run.runId, kind: 'run', journal };
  return { ...run, seal } as PersistedRun;
}

/**
 * The snapshot of a frozen checkpoint as `agent.resume` reads it once stored,
 * signed when the agent signs: what a chat's checkpoint holds of its
 * speaker's run. The signature covers the JSON the store writes (keys
 * sorted, `undefined` as JSON drops it), so the snapshot is signed as built:
 * it shares what did not change with the chat's checkpoint before, and the
 * chat's delta carries only the run's new part and its new signature.
 */
export function checkpointSnapshot(frozen: FrozenCheckpoint, snapshotKey: SnapshotKey | undefined): PersistedRun {
  const run = unsignedSnapshot(frozen);
  return snapshotKey === undefined ? run : signSnapshot(run, snapshotKey);
}

function unsignedSnapshot(frozen: FrozenCheckpoint): PersistedRun {
  const machine = {
    status: 'active',
    value: frozen.value,
    context: { ...frozen.data, sharedState: { xstate$$type: 1, id: frozen.sharedStateId } },
    children: frozen.shared === undefined ? {} : { sharedState: { snapshot: { context: frozen.shared } } },
  };
  return {
    format: 'agentchart.run',
    version: RUN_SNAPSHOT_VERSION,
    agent: frozen.agent,
    runId: frozen.data.runId,
    liveTools: frozen.liveTools,
    ...(frozen.toolChanges.length > 0 ? { toolChanges: frozen.toolChanges } : {}),
    ...(frozen.maxTokens === undefined ? {} : { maxTokens: frozen.maxTokens }),
    machine: machine as PersistedMachine,
  };
}
