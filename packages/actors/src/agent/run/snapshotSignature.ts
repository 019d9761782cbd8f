import { ConfigurationError, RunSnapshotError } from '@agentchart/core';
import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalJson } from './canonicalJson.js';

export { canonicalJson };

/** A key that signs persisted runs and chats (HMAC-SHA256): a string or bytes, at least 16 bytes long. */
export type SnapshotKey = string | Uint8Array;

const PREFIX = 'hmac-sha256:';

/** Checks a key once, where it is configured. */
export function checkSnapshotKey(key: unknown, where: string): SnapshotKey | undefined {
  if (key === undefined) return undefined;
  const length = typeof key === 'string' ? Buffer.byteLength(key) : key instanceof Uint8Array ? key.byteLength : -1;
  if (length < 16) {
    throw new ConfigurationError(`${where}: snapshotKey must be a string or bytes of at least 16 bytes (a secret: e.g. 32 random bytes, base64).`);
  }
  return key as SnapshotKey;
}

/**
 * Signs a snapshot: returns it with `signature`, an HMAC of everything else.
 *
 * @example
 * const signed = signSnapshot({ format: 'agentchart.run', ... }, process.env.SNAPSHOT_KEY!);
 */
export function signSnapshot<T extends object>(snapshot: T, key: SnapshotKey): T & { signature: string } {
  const { signature: _old, ...unsigned } = snapshot as T & { signature?: string };
  return { ...(unsigned as T), signature: sign(unsigned, key) };
}

/**
 * Refuses a snapshot whose signature is missing or does not match its
 * content under `key` (`SNAPSHOT_TAMPERED`).
 */
export function verifySnapshot(snapshot: unknown, key: SnapshotKey, what: string): void {
  const signature = (snapshot as { signature?: unknown } | null)?.signature;
  if (typeof signature !== 'string') {
    throw new RunSnapshotError(
      'SNAPSHOT_TAMPERED',
      `The ${what} is not signed, and this agent signs its snapshots (snapshotKey): resume only what it persisted.`,
    );
  }
  const { signature: _given, ...unsigned } = snapshot as Record<string, unknown>;
  const expected = Buffer.from(sign(unsigned, key));
  const given = Buffer.from(signature);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
    throw new RunSnapshotError(
      'SNAPSHOT_TAMPERED',
      `The ${what}'s signature does not match its content: it was changed after it was persisted, or signed with another snapshotKey. It is refused; nothing ran.`,
    );
  }
}

function sign(unsigned: unknown, key: SnapshotKey): string {
  return PREFIX + createHmac('sha256', key).update(canonicalJson(unsigned)).digest('hex');
}
