import { ConfigurationError } from '@agentchart/core';
import {
  DEFAULT_IDLE_TIMEOUT_MS,
  DEFAULT_MAX_ERROR_BODY_BYTES,
  DEFAULT_MAX_LINE_BYTES,
  DEFAULT_MAX_REPLY_BYTES,
  DEFAULT_MAX_RETRIES,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from '../constants.js';

/** The transport settings both providers take (all optional; defaults in constants.ts). */
export interface TransportOptions {
  /**
   * One deadline for the server's first answer (response headers), in ms,
   * covering every retry and the waits between them (default 300 000: models
   * load slowly). Retries never make a request wait longer than this.
   */
  timeoutMs?: number;
  /** The longest silence between two pieces of a reply once it has begun, in ms (default 120 000). */
  idleTimeoutMs?: number;
  /** Retries after a failed connection or a 408/409/429/5xx answer, within `timeoutMs` (default 1). */
  maxRetries?: number;
  /** The longest stream line read, in bytes (default 8 MiB). */
  maxLineBytes?: number;
  /** The most read of one streamed reply, in bytes (default 64 MiB). */
  maxReplyBytes?: number;
  /** The most read of an HTTP error body, in bytes (default 64 KiB). */
  maxErrorBodyBytes?: number;
}

/** Transport settings with every default applied. */
export type TransportSettings = Required<TransportOptions>;

/**
 * Applies the defaults and checks each setting, so a bad value is a
 * ConfigurationError when the provider is created, not a hang later.
 *
 * @example
 * resolveTransport('ollama', { idleTimeoutMs: 30_000 }).idleTimeoutMs; // 30000
 */
export function resolveTransport(factory: string, options: TransportOptions): TransportSettings {
  return {
    timeoutMs: positive(factory, 'timeoutMs', options.timeoutMs, DEFAULT_REQUEST_TIMEOUT_MS),
    idleTimeoutMs: positive(factory, 'idleTimeoutMs', options.idleTimeoutMs, DEFAULT_IDLE_TIMEOUT_MS),
    maxRetries: nonNegative(factory, 'maxRetries', options.maxRetries, DEFAULT_MAX_RETRIES),
    maxLineBytes: positive(factory, 'maxLineBytes', options.maxLineBytes, DEFAULT_MAX_LINE_BYTES),
    maxReplyBytes: positive(factory, 'maxReplyBytes', options.maxReplyBytes, DEFAULT_MAX_REPLY_BYTES),
    maxErrorBodyBytes: positive(factory, 'maxErrorBodyBytes', options.maxErrorBodyBytes, DEFAULT_MAX_ERROR_BODY_BYTES),
  };
}

function positive(factory: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value <= 0) {
    throw new ConfigurationError(`${factory}({ ${name} }) must be a positive number, got ${String(value)}.`, { [name]: value });
  }
  return value;
}

function nonNegative(factory: string, name: string, value: number | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) {
    throw new ConfigurationError(`${factory}({ ${name} }) must be a whole number of 0 or more, got ${String(value)}.`, { [name]: value });
  }
  return value;
}
