import { hash } from 'node:crypto';
import { canonicalJson } from '../agent/run/snapshotSignature.js';

/**
 * The journal's fingerprint of a call's arguments: SHA-256 of their JSON
 * with sorted keys, so a call re-made with other arguments under the same
 * id is told apart.
 *
 * @example
 * argumentsHash({ b: 1, a: 2 }) === argumentsHash({ a: 2, b: 1 }); // true
 */
export function argumentsHash(args: unknown): string {
  return `sha256:${hash('sha256', canonicalJson(args ?? null), 'hex')}`;
}
