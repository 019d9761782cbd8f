import { randomUUID } from 'node:crypto';

/** A new run id, unique across processes (persisted runs keep theirs). */
export function newRunId(): string {
  return `run_${randomUUID()}`;
}
