import { ConfigurationError, type StateRecord } from '@agentchart/core';
import type { z } from 'zod';
import { checkStateSchema } from '../../sharedState/stateSchemaIssues.js';

/**
 * The initial shared state of a run, checked against the agent's state schema
 * (its defaults filled in). A key whose value is `undefined` is absent, as
 * after `state.set(key, undefined)`.
 */
export function validateInitialState(state: StateRecord | undefined, schema: z.ZodType<StateRecord> | undefined): StateRecord {
  const initial = state ?? {};
  if (typeof initial !== 'object' || initial === null || Array.isArray(initial)) {
    throw new ConfigurationError('The `state` run option takes an object of initial values, e.g. { topic: "cats" }.');
  }
  if (schema === undefined) return withoutUndefined(initial);
  const checked = checkStateSchema(schema, initial);
  if (!checked.ok) {
    throw new ConfigurationError(`The initial shared state does not match the agent's stateSchema: ${checked.issues.join('; ')}.`, {
      issues: checked.issues,
    });
  }
  return withoutUndefined(checked.values);
}

function withoutUndefined(values: StateRecord): StateRecord {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined));
}
