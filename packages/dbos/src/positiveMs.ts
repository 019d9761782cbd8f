import { ConfigurationError } from '@agentchart/core';

/** `value` when it is a positive, finite number of milliseconds; otherwise a `ConfigurationError` naming `option`. */
export function positiveMs(value: number, option: string): number {
  if (Number.isFinite(value) && value > 0) return value;
  throw new ConfigurationError(`${option} is a positive number of milliseconds (got ${value}). Pass e.g. 50.`, { [option]: value });
}
