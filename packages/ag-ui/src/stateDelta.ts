import type { JsonPatchOperation } from '@ag-ui/core';

/** One change of a shared-state key. */
export interface KeyChange {
  key: string;
  value?: unknown;
  previous?: unknown;
  deleted: boolean;
}

/**
 * A shared-state change as a JSON Patch (RFC 6902) of the state object:
 * `add` for a new key, `replace` for a changed one, `remove` for a deleted one.
 *
 * @example
 * stateDelta({ key: 'paid', value: 5, deleted: false }); // [{ op: 'add', path: '/paid', value: 5 }]
 */
export function stateDelta(change: KeyChange): JsonPatchOperation[] {
  const path = `/${change.key.replaceAll('~', '~0').replaceAll('/', '~1')}`;
  if (change.deleted) return [{ op: 'remove', path }];
  return [{ op: change.previous === undefined ? 'add' : 'replace', path, value: change.value }];
}
