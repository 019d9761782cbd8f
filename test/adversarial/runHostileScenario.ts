import { type AgentRun, createAgent } from '@agentchart/actors';
import { type AnyTool, type RunEvent, ToolError, ToolRulesError, defineTool, registerSecrets } from '@agentchart/core';
import { createTraceRecorder, memorySink } from '@agentchart/inspect';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';
import { ADDED_TOOL, type HostileScenario, RUNTIME_SECRET, TOOL_NAMES, type ToolSetup } from './hostileArbitraries.js';

registerSecrets([RUNTIME_SECRET]);

/** What one hostile run did, for the invariants. */
export interface HostileRunRecord {
  /** The agent could not be created (a rule set that deadlocks or names nothing valid). */
  rejectedRules?: ToolRulesError;
  executions: { step: number; id: string; name: string; args: Record<string, unknown> }[];
  events: RunEvent[];
  stopReason: string | undefined;
  trace: string | undefined;
  strict: Record<string, boolean>;
}

const PARAMETERS = z.object({ n: z.number().optional(), s: z.string().optional() });

/**
 * Runs one hostile scenario to its end: an agent with the scenario's tools,
 * rules and limits, a scripted model that replies with the hostile turns, and
 * a person who approves or rejects as the scenario says.
 */
export async function runHostileScenario(scenario: HostileScenario): Promise<HostileRunRecord> {
  const record: HostileRunRecord = { executions: [], events: [], stopReason: undefined, trace: undefined, strict: {} };
  let step = 0;
  const makeTool = (name: string, setup: ToolSetup, extra?: (args: Record<string, unknown>, add: (tool: AnyTool) => void) => void) => {
    record.strict[name] = setup.strict;
    return defineTool({
      name,
      description: `The ${name} tool.`,
      parameters: PARAMETERS,
      strict: setup.strict,
      oneCallAtATime: setup.oneCallAtATime,
      approval: setup.approval === 'big' ? (args) => (args.n ?? 0) > 5 : setup.approval,
      execute: (args, ctx) => {
        record.executions.push({ step, id: ctx.callId, name, args: args as Record<string, unknown> });
        extra?.(args as Record<string, unknown>, (tool) => ctx.addTools(tool));
        if ((args.n ?? 0) === 3) throw new Error(`upstream echoed ${RUNTIME_SECRET}`);
        if ((args.n ?? 0) === 4) throw new ToolError(`denied for Bearer ${RUNTIME_SECRET}`);
        return `${name} ok`;
      },
    });
  };
  const omega = makeTool(ADDED_TOOL, scenario.tools.omega);
  const tools = TOOL_NAMES.map((name) => makeTool(name, scenario.tools[name], name === 'alpha' ? (_args, add) => add(omega) : undefined));
  const model = scriptedModel(
    scenario.turns.map((turn) => ({
      ...(turn.text !== undefined ? { text: turn.text } : {}),
      ...(turn.toolCalls !== undefined ? { toolCalls: turn.toolCalls } : {}),
      ...(turn.error !== undefined ? { error: turn.error } : {}),
    })),
    { recordRequests: false },
  );
  let agent: ReturnType<typeof createAgent>;
  try {
    agent = createAgent({
      name: 'hostile',
      model,
      tools,
      ...(scenario.rules !== undefined ? { toolRules: scenario.rules as never, unnamedTools: scenario.unnamedTools } : {}),
      ...(scenario.maxToolCalls !== undefined ? { maxToolCalls: scenario.maxToolCalls } : {}),
      maxSteps: scenario.maxSteps,
      detailedErrors: true,
    });
  } catch (error) {
    if (error instanceof ToolRulesError) {
      record.rejectedRules = error;
      return record;
    }
    throw error;
  }
  const sink = scenario.trace ? memorySink() : undefined;
  const recorder = sink ? createTraceRecorder({ sink }) : undefined;
  const run: AgentRun = agent.run('Do as you like.', recorder ? { inspect: recorder.inspect } : {});
  recorder?.recordRun(run);
  let decision = 0;
  run.events$.subscribe((event) => {
    record.events.push(event);
    if ('step' in event && typeof event.step === 'number') step = event.step;
    if (event.type === 'approval.requested') {
      const approve = scenario.decisions[decision++ % scenario.decisions.length];
      queueMicrotask(() => {
        if (!run.pendingApprovals.some((request) => request.id === event.id)) return;
        if (approve) run.approve(event.id);
        else run.reject(event.id, 'no');
      });
    }
  });
  const result = await run.result;
  record.stopReason = result.stopReason;
  if (recorder && sink) {
    await recorder.close();
    record.trace = sink.toNdjson();
  }
  return record;
}
