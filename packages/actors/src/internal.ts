/**
 * What the other agentchart packages share with actors but users should not
 * build on: the lease keeper and the tool-call journal a durable workflow
 * engine (`@agentchart/dbos`) runs stored chats with. No stability promise:
 * it changes with any release. See docs/packaging.md.
 */
export { argumentsHash } from './durable/argumentsHash.js';
export { journalMiddleware, type JournalTarget } from './durable/journalMiddleware.js';
export { keepLease, type LeaseKeeper } from './durable/leaseKeeper.js';
