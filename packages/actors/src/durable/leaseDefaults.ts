import { hostname } from 'node:os';

/** How long a lease lasts unless renewed (a crashed owner's run is free again after it). */
export const DEFAULT_LEASE_MS = 30_000;

/**
 * This process, as a lease owner: `<hostname>:<pid>`.
 *
 * @example
 * const { owner = defaultOwner() } = options;
 */
export const defaultOwner = (): string => `${hostname()}:${process.pid}`;
