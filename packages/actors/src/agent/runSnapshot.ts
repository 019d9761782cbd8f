import { type AnyTool, RunSnapshotError } from '@agentchart/core';
import type { Actor, SnapshotFrom } from 'xstate';
import { z } from 'zod';
import { RUN_SNAPSHOT_VERSION } from '../constants.js';
import type { AgentContext } from './agentContext.js';
import type { agentMachine } from './agentMachine.js';
import { type AgentRuntime, agentRuntime } from './agentRuntime.js';

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
  /** The XState persisted snapshot of the agent machine, `context.runtime` left out. */
  machine: PersistedMachine;
}

const PersistedMachineSchema = z.looseObject({
  status: z.literal('active'),
  value: z.unknown(),
  context: z.looseObject({ runId: z.string(), messages: z.array(z.unknown()) }),
});
type PersistedMachine = z.infer<typeof PersistedMachineSchema>;

const PersistedRunSchema = z.object({
  format: z.literal('agentchart.run'),
  version: z.number().int(),
  agent: z.string(),
  runId: z.string(),
  liveTools: z.array(z.string()),
  machine: PersistedMachineSchema,
});

/** The persisted versions this release reads (1: before the model caller and tool runner became run-long children). */
const SUPPORTED_VERSIONS: readonly number[] = [1, RUN_SNAPSHOT_VERSION];

/** Version 1 runs had no run-long `model` and `toolRunner` children: give them idle ones. */
function migrateV1(machine: PersistedMachine): PersistedMachine {
  const children = (machine.children ?? {}) as Record<string, unknown>;
  const idle = { status: 'active', output: undefined, error: undefined, input: undefined };
  return {
    ...machine,
    children: {
      ...children,
      model: { src: 'modelCaller', snapshot: idle },
      toolRunner: { src: 'toolRunner', snapshot: idle },
    },
  };
}

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
  const { runtime, ...data } = snapshot.context;
  // Persist without the runtime: it is code (model clients may even hold cycles).
  const persisted = actor.logic.getPersistedSnapshot({ ...snapshot, context: data as AgentContext });
  const machine = JSON.parse(JSON.stringify(persisted)) as PersistedMachine;
  return {
    format: 'agentchart.run',
    version: RUN_SNAPSHOT_VERSION,
    agent: runtime.agentName,
    runId: snapshot.context.runId,
    liveTools: runtime.liveTools.names(),
    machine,
  };
}

/**
 * Checks a persisted run and returns the machine snapshot to restore, with
 * `runtime` attached. `makeRuntime` receives the live tools, resolved by name
 * from `knownTools` (the resuming agent's tools plus any tools it was given
 * for resuming); a name that cannot be resolved throws.
 */
export function restoreRun(
  value: unknown,
  agentName: string,
  knownTools: ReadonlyMap<string, AnyTool>,
  makeRuntime: (liveTools: AnyTool[]) => AgentRuntime,
): { runId: string; snapshot: SnapshotFrom<typeof agentMachine> } {
  const parsed = PersistedRunSchema.safeParse(value);
  if (!parsed.success) {
    throw new RunSnapshotError(
      'RUN_SNAPSHOT_INVALID',
      `This is not a persisted agentchart run: ${parsed.error.issues[0]?.message ?? 'invalid'}. Pass what run.persist() returned.`,
      { issues: parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`) },
    );
  }
  const persisted = parsed.data;
  if (!SUPPORTED_VERSIONS.includes(persisted.version)) {
    throw new RunSnapshotError(
      'RUN_SNAPSHOT_INVALID',
      `Persisted run version ${persisted.version} is not supported; this version of agentchart reads versions ${SUPPORTED_VERSIONS.join(', ')}.`,
      { version: persisted.version, supported: SUPPORTED_VERSIONS },
    );
  }
  if (persisted.agent !== agentName) {
    throw new RunSnapshotError(
      'RUN_SNAPSHOT_INVALID',
      `The persisted run belongs to agent "${persisted.agent}"; resume it with that agent, not "${agentName}".`,
      { agent: persisted.agent, resumingAgent: agentName },
    );
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
  const runtime = makeRuntime(persisted.liveTools.map((name) => knownTools.get(name) as AnyTool));
  const data = persisted.machine.context as unknown as Omit<AgentContext, 'runtime'>;
  // JSON turned the batch's "not answered yet" (undefined) into null: turn it back.
  const batch = { ...data.batch, outcomes: data.batch.outcomes.map((outcome) => outcome ?? undefined) };
  const machine = persisted.version === 1 ? migrateV1(persisted.machine) : persisted.machine;
  // A run persisted with its rules' mirror (every run before mirrors were kept for inspection only) keeps it moving.
  const mirrorToolRules = (machine.children as Record<string, unknown> | undefined)?.toolRules !== undefined;
  const context = {
    ...data,
    batch,
    runtime: agentRuntime(runtime, { liveTools: runtime.liveTools, middleware: runtime.middleware, mirrorToolRules }),
  };
  const snapshot = { ...machine, context } as unknown as SnapshotFrom<typeof agentMachine>;
  return { runId: persisted.runId, snapshot };
}
