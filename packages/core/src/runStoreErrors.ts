import { AgentchartError } from './errors.js';

/**
 * A run store refused an operation: `RUN_ALREADY_EXISTS` (createRun with a
 * taken id), `RUN_NOT_FOUND`, `CALL_NOT_STARTED` (a result for a call the
 * journal has not started), `STORE_SCHEMA_TOO_NEW` (the database was
 * migrated by a newer agentchart), `STORE_DATA_INVALID` (a stored value is
 * not the JSON it should be).
 */
export class RunStoreError extends AgentchartError {
  constructor(
    code: 'RUN_ALREADY_EXISTS' | 'RUN_NOT_FOUND' | 'CALL_NOT_STARTED' | 'STORE_SCHEMA_TOO_NEW' | 'STORE_DATA_INVALID',
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, details, options);
  }
}

/**
 * Another owner holds the run's lease and it has not expired: this process
 * must not resume it. Retry after `expiresAt`, or leave the run to its owner.
 */
export class RunOwnedElsewhereError extends AgentchartError {
  constructor(
    readonly runId: string,
    readonly owner: string,
    readonly expiresAt: number,
  ) {
    super(
      'RUN_OWNED_ELSEWHERE',
      `Run "${runId}" is owned by "${owner}" until ${new Date(expiresAt).toISOString()}. ` +
        'Leave it to that owner, or resume it after the lease expires (a crashed owner stops renewing it).',
      { runId, owner, expiresAt },
    );
  }
}

/**
 * A write was made under a lease that is no longer current: another owner
 * took the run (a higher fencing token) or the lease expired. Nothing was
 * written. The process must stop working on the run; to go on, acquire the
 * lease again and resume from the store.
 */
export class RunLeaseLostError extends AgentchartError {
  constructor(runId: string, owner: string, token: number, details: Record<string, unknown> = {}) {
    super(
      'RUN_LEASE_LOST',
      `The lease of "${owner}" on run "${runId}" (fencing token ${token}) is no longer current: another owner took the run or the lease expired. ` +
        'Nothing was written. Stop working on this run; to continue it, acquire its lease again and resume it from the store.',
      // `fence`, not `token`: error details are redacted, and a key named token reads as a credential.
      { runId, owner, fence: token, ...details },
    );
  }
}
