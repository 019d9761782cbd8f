import type { RunEventOf } from '@agentchart/core';
import { StopReasonSchema } from '@agentchart/core/internal';
import { LEAKED_VALUES } from '../security/secretCorpus.js';
import { type HostileScenario, RUNTIME_SECRET } from './hostileArbitraries.js';
import type { HostileRunRecord } from './runHostileScenario.js';

/** Object.prototype as it was before any hostile run. */
const PROTOTYPE_NAMES = Object.getOwnPropertyNames(Object.prototype).sort().join(',');
const PARAMETER_KEYS = ['n', 's'] as const;

/** Why a hostile run broke an invariant, or `undefined` when it kept them all. */
export function brokenInvariant(scenario: HostileScenario, record: HostileRunRecord): string | undefined {
  if (Object.getOwnPropertyNames(Object.prototype).sort().join(',') !== PROTOTYPE_NAMES) return 'Object.prototype changed';
  const probe = {} as Record<string, unknown>;
  if (probe.polluted !== undefined || probe.n !== undefined || probe.s !== undefined) return 'Object.prototype gained a property';
  if (record.rejectedRules) return undefined;

  if (record.stopReason === undefined || !StopReasonSchema.safeParse(record.stopReason).success)
    return `no stop reason (${String(record.stopReason)})`;
  const finished = record.events.filter((event) => event.type === 'run.finished');
  if (finished.length !== 1) return `${finished.length} run.finished events`;

  const key = (step: number, id: string) => `${step}:${id}`;
  const of = <T extends RunEventOf<'tool.refused' | 'approval.requested' | 'approval.decided'>['type']>(type: T) =>
    record.events.filter((event): event is RunEventOf<T> => event.type === type);
  const refused = new Set(of('tool.refused').map((event) => key(event.step, event.call.id)));
  const decided = new Map(of('approval.decided').map((event) => [key(event.step, event.id), event.approved]));
  const shown = new Map(of('approval.requested').map((event) => [key(event.step, event.id), event.arguments]));
  const ruleApproval = new Set((scenario.rules ?? []).filter((rule) => rule.type === 'requiresApproval').map((rule) => rule.tool as string));

  for (const execution of record.executions) {
    const id = key(execution.step, execution.id);
    if (refused.has(id)) return `refused call ${id} (${execution.name}) executed`;
    if (decided.get(id) === false) return `rejected call ${id} (${execution.name}) executed`;
    const setup = scenario.tools[execution.name as keyof HostileScenario['tools']];
    const n = typeof execution.args.n === 'number' ? execution.args.n : 0;
    const needsApproval = setup.approval === 'always' || (setup.approval === 'big' && n > 5) || ruleApproval.has(execution.name);
    if (needsApproval && decided.get(id) !== true) return `unapproved call ${id} (${execution.name}) executed`;
    const prototype = Object.getPrototypeOf(execution.args) as object | null;
    if (prototype !== Object.prototype && prototype !== null) return `executed arguments of ${id} have a foreign prototype`;
    for (const name of PARAMETER_KEYS) {
      if (execution.args[name] !== undefined && !Object.hasOwn(execution.args, name)) return `${id} executed with an inherited "${name}"`;
    }
    if (shown.has(id)) {
      const approved = shown.get(id);
      for (const name of PARAMETER_KEYS) {
        const seen = ownValue(approved, name, record.strict[execution.name] === true);
        if (JSON.stringify(seen) !== JSON.stringify(execution.args[name])) {
          return `approval of ${id} showed ${name}=${JSON.stringify(seen)}, executed with ${JSON.stringify(execution.args[name])}`;
        }
      }
    }
  }
  if (scenario.rules !== undefined && scenario.unnamedTools === 'refuse' && record.executions.some((execution) => execution.name === 'omega')) {
    return "an unnamed tool ran under unnamedTools: 'refuse'";
  }
  if (scenario.maxToolCalls !== undefined && record.executions.length > scenario.maxToolCalls) {
    return `${record.executions.length} executions beyond maxToolCalls ${scenario.maxToolCalls}`;
  }
  if (JSON.stringify(record.events).includes(RUNTIME_SECRET)) return 'the runtime secret reached events';
  if (record.trace !== undefined) {
    if (record.trace.includes(RUNTIME_SECRET)) return 'the runtime secret reached the trace';
    const leaked = LEAKED_VALUES.find((secret) => record.trace?.includes(secret));
    if (leaked !== undefined) return `a credential shape reached the trace: ${leaked}`;
  }
  return undefined;
}

/** What a person approving saw for one parameter: own properties only (`null` is "absent" for a strict tool). */
function ownValue(args: unknown, name: string, strict: boolean): unknown {
  if (typeof args !== 'object' || args === null || !Object.hasOwn(args, name)) return undefined;
  const value = (args as Record<string, unknown>)[name];
  return strict && value === null ? undefined : value;
}
