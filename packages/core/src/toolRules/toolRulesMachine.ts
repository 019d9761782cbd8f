import { type EventObject, type MetaObject, type NonReducibleUnknown, type StateMachine, type StateSchema, assign, setup } from 'xstate';
import { applyCall, applyEnd, applyOutput, approveCall, blockingRule, canEnd, rejectCall } from './toolRuleEngine.js';
import type { ToolRuleProgram } from './toolRuleProgram.js';
import { type ToolRuleState, initialToolRuleState } from './toolRuleState.js';

/**
 * The events of a rule machine: one per tool (`call.<tool>`), the output of
 * a conditional tool, the end of the run by a final answer, and the decision
 * on a call that requires approval.
 */
export type ToolRulesEvent =
  | { type: `call.${string}` }
  | { type: 'output'; value: unknown }
  | { type: 'end' }
  | { type: 'approve' }
  | { type: 'reject' };

/** The event that asks the machine to admit a call of `tool`. */
export const callEvent = (tool: string): { type: `call.${string}` } => ({ type: `call.${tool}` });

/** The machine's state for "the last tool was `tool`". */
export const toolStateKey = (tool: string): string => `after:${tool}`;

/** The special states beside the per-tool ones. */
export const RULE_STATES = { start: 'start', done: 'done', failed: 'failed', awaitingApproval: 'awaitingApproval' } as const;

/**
 * Builds the rule machine: a state per last tool plus `start`, `done`,
 * `failed` and `awaitingApproval`; an event per tool. Guards hold what needs
 * memory (parents called, counts, required-before-exit, the conditional
 * branch); the context is finite, so `xstate/graph` can enumerate it.
 */
export function createToolRulesMachine(program: ToolRuleProgram): ToolRulesMachine {
  const machineSetup = setup({
    types: { context: {} as ToolRuleState, events: {} as ToolRulesEvent },
    guards: {
      allowed: ({ context }, params: { tool: string }) => blockingRule(program, context, params.tool) === null,
      canEnd: ({ context }) => canEnd(program, context),
      awaitingOutput: ({ context }) => context.branch?.status === 'pending',
      outputUnmatched: ({ context, event }) => event.type === 'output' && applyOutput(program, context, event.value).state.phase === 'failed',
      awaiting: ({ context }, params: { tool: string }) => context.awaitingApproval === params.tool,
      lastIs: ({ context }, params: { tool: string | null }) => context.awaitingApproval !== null && context.last === params.tool,
    },
    actions: {
      call: assign(({ context }, params: { tool: string }) => applyCall(program, context, params.tool)),
      output: assign(({ context, event }) => (event.type === 'output' ? applyOutput(program, context, event.value).state : context)),
      approve: assign(({ context }) => approveCall(program, context)),
      reject: assign(({ context }) => rejectCall(context)),
      end: assign(({ context }) => applyEnd(context)),
    },
  });
  // The config is built as data (it is also exported as JSON); its shape is the one setup() expects.
  return machineSetup.createMachine(toolRulesMachineConfig(program) as Parameters<typeof machineSetup.createMachine>[0]);
}

type NoParams = { type: 'output' | 'end' | 'approve' | 'reject'; params: NonReducibleUnknown };
type ToolParams<T extends string, Tool> = { type: T; params: { tool: Tool } };
type NoToolParams = { type: 'canEnd' | 'awaitingOutput' | 'outputUnmatched'; params: unknown };

/**
 * A machine built by `createToolRulesMachine`. Written out rather than
 * inferred: the state schema inferred from the generic config reads
 * `id?: string | undefined`, which a user's `exactOptionalPropertyTypes`
 * rejects in our declaration files; here it is xstate's plain `StateSchema`.
 */
export type ToolRulesMachine = StateMachine<
  ToolRuleState,
  ToolRulesEvent,
  // biome-ignore lint/complexity/noBannedTypes: xstate's own type for "no children"
  {},
  never,
  NoParams | ToolParams<'call', string>,
  NoToolParams | ToolParams<'allowed' | 'awaiting', string> | ToolParams<'lastIs', string | null>,
  never,
  // biome-ignore lint/complexity/noBannedTypes: xstate's state value of a machine without typed states
  {},
  string,
  NonReducibleUnknown,
  NonReducibleUnknown,
  EventObject,
  MetaObject,
  StateSchema,
  MetaObject
>;

/**
 * The rule machine as a plain, JSON-serializable XState config (guards and
 * actions referenced by name with their params): paste it into the Stately
 * editor or inspector to see the rules as a statechart.
 */
export function toolRulesMachineConfig(program: ToolRuleProgram) {
  const afterCall = (tool: string) => (program.terminal.has(tool) ? RULE_STATES.done : toolStateKey(tool));
  const states: Record<string, { type?: 'final'; description?: string }> = {
    [RULE_STATES.start]: { description: 'No tool has been called yet.' },
  };
  for (const tool of program.tools) {
    if (!program.terminal.has(tool)) states[toolStateKey(tool)] = { description: `The last tool called was ${tool}.` };
  }
  if (program.requiresApproval.size > 0) {
    states[RULE_STATES.awaitingApproval] = { description: 'A call waits for a human decision.' };
  }
  states[RULE_STATES.done] = { type: 'final', description: 'The run has ended.' };
  if ([...program.conditional.values()].some((rule) => rule.requireMatch && rule.defaultChild === undefined)) {
    states[RULE_STATES.failed] = { type: 'final', description: 'A conditional output matched no case.' };
  }

  const on: Record<string, unknown> = {};
  for (const tool of program.tools) {
    on[`call.${tool}`] = {
      guard: { type: 'allowed', params: { tool } },
      target: `.${program.requiresApproval.has(tool) ? RULE_STATES.awaitingApproval : afterCall(tool)}`,
      actions: { type: 'call', params: { tool } },
    };
  }
  if (program.conditional.size > 0) {
    on.output = [
      ...(states[RULE_STATES.failed] ? [{ guard: 'outputUnmatched', target: `.${RULE_STATES.failed}`, actions: 'output' }] : []),
      { guard: 'awaitingOutput', actions: 'output' },
    ];
  }
  if (program.requiresApproval.size > 0) {
    on.approve = [...program.requiresApproval].map((tool) => ({
      guard: { type: 'awaiting', params: { tool } },
      target: `.${afterCall(tool)}`,
      actions: 'approve',
    }));
    on.reject = [null, ...program.tools.filter((tool) => !program.terminal.has(tool))].map((tool) => ({
      guard: { type: 'lastIs', params: { tool } },
      target: `.${tool === null ? RULE_STATES.start : toolStateKey(tool)}`,
      actions: 'reject',
    }));
  }
  on.end = { guard: 'canEnd', target: `.${RULE_STATES.done}`, actions: 'end' };

  // Diagrams explore the machine event by event; these are the outputs worth trying (each case, and one that matches none).
  const outputs = [...program.conditional.values()].flatMap((rule) => rule.cases.map((entry) => ({ value: entry.when })));
  // Events that are not tool calls are labelled with words no tool name can be (tool names have no spaces).
  const meta = {
    eventLabels: { end: 'final answer', approve: 'approved by a person', reject: 'rejected by a person' },
    ...(outputs.length > 0 ? { eventSamples: { output: [...outputs, { value: '(no match)' }] } } : {}),
  };
  return { id: 'toolRules', initial: RULE_STATES.start, context: initialToolRuleState(), states, on, meta };
}
