import { type AnyTool, RunSnapshotError, type TokenBudget, tokenBudget } from '@agentchart/core';
import { setOwn } from '@agentchart/core/internal';
import type { Actor, SnapshotFrom } from 'xstate';
import type { z } from 'zod';
import { RUN_SNAPSHOT_VERSION } from '../../constants.js';
import type { AgentContext } from '../machine/agentContext.js';
import type { agentMachine } from '../machine/agentMachine.js';
import { agentRuntime } from '../machine/agentRuntime.js';
import type { AgentRuntime } from '../machine/agentContext.js';
import { checkRunSnapshot } from './checkRunSnapshot.js';
import { type CheckpointState, PersistedRunSchema, type PersistedMachine } from './runSnapshotSchema.js';
import { rebuildChildren } from '../machine/rebuildChildren.js';
import { type SnapshotKey, signSnapshot, verifySnapshot } from './snapshotSignature.js';
import { SharedStateSlot } from '../../sharedState/sharedStateSlot.js';
import type { ToolListChangeRecord } from '../tools/liveTools.js';

/**
 * A run waiting for approval, as plain JSON: the agent machine's persisted
 * snapshot without `context.runtime` (the model, tools and middleware, which
 * are code), plus the names of the run's live tools. Store it anywhere;
 * `agent.resume(snapshot)` continues the run, in this process or another.
 */
export interface PersistedRun {
  format: 'agentchart.run';
  version: number;
  agent: string;
  runId: string;
  /** The run's live tool list, by name, in order. */
  liveTools: string[];
  /** The changes that led from the agent's tools to `liveTools` (absent when there were none). */
  toolChanges?: ToolListChangeRecord[];
  /** The run's own token budget (its finite caps), when it has one: a resumed run keeps it. */
  maxTokens?: PersistedTokenBudget;
  /** The XState persisted snapshot of the agent machine, `context.runtime` left out. */
  machine: PersistedMachine;
  /** `hmac-sha256:…` of everything else, when the agent has a `snapshotKey`. */
  signature?: string;
}

/** How `restoreRun` checks and restores. */
export interface RestoreOptions {
  /** The agent's key: the snapshot must carry its signature. */
  snapshotKey?: SnapshotKey | undefined;
  /** The run takes part in a group chat, whose shared state the chat attaches (the run has none of its own). */
  sharedStateFromChat?: boolean;
  /**
   * The tools a run of the agent starts with, by name: the live tools must
   * be what the snapshot's `toolChanges` make of them, each change by a call
   * the run executed (or a tool source), beside the tools in `vouchedTools`.
   */
  startingTools?: readonly string[];
  /** Tools the caller passed for resuming (`agent.resume(snapshot, { tools })`): accepted in the live tools as they are. */
  vouchedTools?: ReadonlySet<string>;
}

/** Where a restored run goes on: waiting for approval, or (a store checkpoint) sent `resume` to this state. */
export type ResumePoint = Exclude<CheckpointState, 'awaitingApproval'> | undefined;

/** The persisted versions this release reads (1: before the model caller and tool runner became run-long children). */
const SUPPORTED_VERSIONS: readonly number[] = [1, RUN_SNAPSHOT_VERSION];

/** The states a run can be persisted in: those where nothing is running. */
const PERSISTABLE_STATES = new Set(['awaitingApproval']);

/** Persists a run that waits for approval; throws `RunSnapshotError` in any other state. */
export function persistRun(actor: Actor<typeof agentMachine>): PersistedRun {
  const snapshot = actor.getSnapshot();
  const state = typeof snapshot.value === 'string' ? snapshot.value : JSON.stringify(snapshot.value);
  if (snapshot.status !== 'active' || !PERSISTABLE_STATES.has(state)) {
    throw new RunSnapshotError(
      'RUN_NOT_PERSISTABLE',
      `A run can be persisted while it waits for approval; this one is in state "${state}" (${snapshot.status}). ` +
        'Persist it when `run.pendingApprovals` is not empty.',
      { state, status: snapshot.status },
    );
  }
  const { runtime, sharedState, ...data } = snapshot.context;
  // The snapshot names the shared-state actor and holds its values: made now if nothing needed it before
  // (`SharedStateSlot`), and listed first among the children, where the machine's spawn put it.
  const stateRef = sharedState.ref;
  const children =
    sharedState.isOwnedBy(actor) && snapshot.children.sharedState === undefined ? { sharedState: stateRef, ...snapshot.children } : snapshot.children;
  // Persist without the runtime: it is code (model clients may even hold cycles).
  const persisted = actor.logic.getPersistedSnapshot({
    ...snapshot,
    context: { ...data, sharedState: stateRef } as unknown as AgentContext,
    children,
  } as typeof snapshot);
  const machine = JSON.parse(JSON.stringify(persisted)) as PersistedMachine;
  const run: PersistedRun = {
    format: 'agentchart.run',
    version: RUN_SNAPSHOT_VERSION,
    agent: runtime.agentName,
    runId: snapshot.context.runId,
    liveTools: runtime.liveTools.names(),
    machine,
  };
  const changes = runtime.liveTools.changeLog();
  if (changes.length > 0) run.toolChanges = changes;
  const maxTokens = persistedTokenBudget(runtime.tokenBudget);
  if (maxTokens !== undefined) run.maxTokens = maxTokens;
  return runtime.snapshotKey === undefined ? run : signSnapshot(run, runtime.snapshotKey);
}

/** A token budget as JSON: its finite caps only. */
export type PersistedTokenBudget = { total?: number; input?: number; output?: number };

/** The finite caps of `budget` (none: `undefined`), as a snapshot keeps them. */
export function persistedTokenBudget(budget: TokenBudget | undefined): PersistedTokenBudget | undefined {
  if (budget === undefined) return undefined;
  const caps = Object.entries(budget).filter(([, cap]) => Number.isFinite(cap));
  return caps.length === 0 ? undefined : (Object.fromEntries(caps) as PersistedTokenBudget);
}

/**
 * Checks a persisted run and returns the machine snapshot to restore, with
 * `runtime` attached. `makeRuntime` receives the live tools, resolved by name
 * from `knownTools` (the resuming agent's tools plus any tools it was given
 * for resuming); a name that cannot be resolved throws. With a `snapshotKey`
 * the signature is checked first (`SNAPSHOT_TAMPERED`); then every field
 * (`runSnapshotSchema`) and what follows from the transcript
 * (`checkRunSnapshot`). Nothing runs before all of it passed; the machine's
 * children are rebuilt from the checked data, not taken from the snapshot.
 */
export function restoreRun(
  value: unknown,
  agentName: string,
  knownTools: ReadonlyMap<string, AnyTool>,
  makeRuntime: (liveTools: AnyTool[], budget: TokenBudget | undefined) => AgentRuntime,
  options: RestoreOptions = {},
): { runId: string; snapshot: SnapshotFrom<typeof agentMachine>; resumeAt: ResumePoint } {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new RunSnapshotError('RUN_SNAPSHOT_INVALID', 'This is not a persisted agentchart run (not an object). Pass what run.persist() returned.', {
      path: '',
    });
  }
  const version = (value as { version?: unknown }).version;
  if (typeof version === 'number' && !SUPPORTED_VERSIONS.includes(version)) {
    throw new RunSnapshotError(
      'RUN_SNAPSHOT_INVALID',
      `Persisted run version ${version} is not supported; this version of agentchart reads versions ${SUPPORTED_VERSIONS.join(', ')}.`,
      { version, supported: SUPPORTED_VERSIONS },
    );
  }
  const { snapshotKey, sharedStateFromChat = false } = options;
  if (snapshotKey !== undefined) verifySnapshot(value, snapshotKey, 'persisted run');
  const parsed = PersistedRunSchema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const path = issue?.path.join('.') ?? '';
    throw new RunSnapshotError(
      'RUN_SNAPSHOT_INVALID',
      `This is not a persisted agentchart run: at ${path || 'the top'}, ${issue?.message ?? 'invalid'}. Pass what run.persist() returned, unchanged.`,
      { path, issues: parsed.error.issues.map((each: z.core.$ZodIssue) => `${each.path.join('.')}: ${each.message}`) },
    );
  }
  const persisted = parsed.data;
  if (persisted.agent !== agentName) {
    throw new RunSnapshotError(
      'RUN_SNAPSHOT_INVALID',
      `The persisted run belongs to agent "${persisted.agent}"; resume it with that agent, not "${agentName}".`,
      { agent: persisted.agent, resumingAgent: agentName },
    );
  }
  if (persisted.machine.context.runId !== persisted.runId) {
    throw new RunSnapshotError('RUN_SNAPSHOT_INVALID', "The persisted run is not valid at machine.context.runId: it is not the run's id.", {
      path: 'machine.context.runId',
    });
  }
  const missing = persisted.liveTools.filter((name) => !knownTools.has(name));
  if (missing.length > 0) {
    throw new RunSnapshotError(
      'RUN_SNAPSHOT_TOOL_MISSING',
      `The persisted run uses tools the resuming agent does not know: ${missing.join(', ')}. ` +
        'Pass the tools that were added during the run: agent.resume(snapshot, { tools: [...] }).',
      { missing },
    );
  }
  const data = persisted.machine.context;
  if (options.startingTools !== undefined) {
    checkLiveTools(persisted.liveTools, persisted.toolChanges ?? [], options.startingTools, options.vouchedTools ?? new Set(), data);
  }
  const liveTools = persisted.liveTools.map((name) => knownTools.get(name) as AnyTool);
  const runtime = makeRuntime(liveTools, tokenBudget(persisted.maxTokens, 'the persisted run (maxTokens)'));
  checkRunSnapshot(
    data,
    {
      liveTools: new Map(liveTools.map((tool) => [tool.name, tool])),
      toolRules: runtime.toolRules,
      maxSteps: runtime.maxSteps,
    },
    persisted.machine.value,
  );
  const sharedValues = ownSharedValues(value, persisted.machine.children.sharedState?.snapshot.context);
  if (sharedValues === undefined && !sharedStateFromChat) {
    throw new RunSnapshotError(
      'RUN_SNAPSHOT_INVALID',
      "The persisted run is not valid at machine.children.sharedState: the run's shared state is missing.",
      {
        path: 'machine.children.sharedState',
      },
    );
  }
  if (sharedValues !== undefined && runtime.stateSchema !== undefined) {
    const state = runtime.stateSchema.safeParse(sharedValues.values);
    if (!state.success) {
      throw new RunSnapshotError(
        'RUN_SNAPSHOT_INVALID',
        `The persisted run's shared state does not match the agent's stateSchema: ${state.error.issues[0]?.message}.`,
        {
          path: 'machine.children.sharedState.snapshot.context.values',
        },
      );
    }
  }
  // JSON turned the batch's "not answered yet" (undefined) into null: turn it back.
  const batch = { ...data.batch, outcomes: data.batch.outcomes.map((outcome) => outcome ?? undefined) };
  // The run's own shared state is its child (rebuilt below); a chat's is attached by the chat.
  // (XState revives the reference into the slot's actor when it restores the snapshot.)
  const sharedState = sharedValues === undefined ? data.sharedState : SharedStateSlot.restored();
  // A run persisted with its rules' machine as a child keeps it moving (a snapshot without one resumes without one).
  const mirrorToolRules = (persisted.machine.children as Record<string, unknown>).toolRules !== undefined && data.rules !== undefined;
  const restoredRuntime = agentRuntime(runtime, {
    liveTools: runtime.liveTools,
    middleware: runtime.middleware,
    mirrorToolRules,
    checkpoints: runtime.checkpoints,
    livesForChat: runtime.livesForChat ?? false,
  });
  const context = { ...data, batch, sharedState, runtime: restoredRuntime } as unknown as AgentContext;
  const at = persisted.machine.value;
  const machine = {
    status: 'active',
    // A store checkpoint restores as not started yet, then `resume` takes it back to where it was.
    value: at === 'awaitingApproval' ? 'awaitingApproval' : 'idle',
    historyValue: {},
    context,
    children: rebuildChildren(sharedValues, mirrorToolRules ? data.rules : undefined),
  };
  return {
    runId: persisted.runId,
    snapshot: machine as unknown as SnapshotFrom<typeof agentMachine>,
    resumeAt: at === 'awaitingApproval' ? undefined : at,
  };
}

/**
 * Re-derives the live tools: the agent's starting tools, changed by each
 * recorded change in order, where every change is by a call the run
 * executed (a tool adds tools only from inside its `execute`) or by a tool
 * source. The snapshot's `liveTools` must be that list (tools the caller
 * passed for resuming aside). Checked for unsigned snapshots too: a tool
 * named in `liveTools` that no executed call added is refused. (A change
 * invented for a call that did execute is a consistent rewrite of the run's
 * history: signing catches that.)
 */
function checkLiveTools(
  liveTools: readonly string[],
  changes: readonly ToolListChangeRecord[],
  startingTools: readonly string[],
  vouched: ReadonlySet<string>,
  context: PersistedMachine['context'],
): void {
  const executed = new Set(context.toolCalls.filter((record) => record.refusedBy === undefined).map((record) => record.call.id));
  const derived = new Set(startingTools);
  changes.forEach((change, index) => {
    if (!change.by.startsWith('source:') && !executed.has(change.by)) {
      throw new RunSnapshotError(
        'RUN_SNAPSHOT_INVALID',
        `The persisted run is not valid at toolChanges.${index}: "${change.by}" is not a call the run executed, so it changed no tools. Resume only what run.persist() wrote, unchanged.`,
        { path: `toolChanges.${index}` },
      );
    }
    for (const name of change.removed) derived.delete(name);
    for (const name of change.added) derived.add(name);
  });
  const live = new Set(liveTools);
  const never = liveTools.filter((name) => !derived.has(name) && !vouched.has(name));
  const dropped = [...derived].filter((name) => !live.has(name));
  if (never.length > 0 || dropped.length > 0) {
    throw new RunSnapshotError(
      'RUN_SNAPSHOT_INVALID',
      `The persisted run is not valid at liveTools: ${
        never.length > 0
          ? `${never.map((name) => `"${name}"`).join(', ')} ${never.length === 1 ? 'was' : 'were'} never added (no call of the run added ${never.length === 1 ? 'it' : 'them'})`
          : `${dropped.map((name) => `"${name}"`).join(', ')} ${dropped.length === 1 ? 'is' : 'are'} missing, though nothing removed ${dropped.length === 1 ? 'it' : 'them'}`
      }. Resume only what run.persist() wrote, unchanged.`,
      { path: 'liveTools', never, dropped },
    );
  }
}

/**
 * The shared state's values as the snapshot holds them, own keys only: zod's
 * record parse would turn a `__proto__` key into a prototype, so the checked
 * shape is read back from the raw snapshot key by key.
 */
function ownSharedValues(
  raw: unknown,
  checked: { values: Record<string, unknown>; version: number } | undefined,
): { values: Record<string, unknown>; version: number } | undefined {
  if (checked === undefined) return undefined;
  const values = (raw as { machine: { children: { sharedState: { snapshot: { context: { values: Record<string, unknown> } } } } } }).machine.children
    .sharedState.snapshot.context.values;
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(values)) setOwn(copy, key, values[key]);
  return { values: copy, version: checked.version };
}
