import type { RunStore } from '@agentchart/core';

/** Where a durable run is kept, and who this process is. */
export interface StoreOptions {
  store: RunStore;
  /** This process (or worker): the owner its leases are taken for (default `<hostname>:<pid>`). */
  owner?: string;
  /** How long a lease lasts unless renewed, in ms (default 30 000). */
  leaseMs?: number;
}
