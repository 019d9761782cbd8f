/** The key under which the journal keeps a result recorded by hand together with the shared-state writes it stands for. */
const RECORDED = 'agentchart.recorded';

/** What `recordResult` takes besides the result. */
export interface RecordResultOptions {
  /**
   * The shared-state writes the call made (key → value), applied when the
   * recorded result answers the call, as if the tool had written them: the
   * journal keeps results, not the writes of a call that was cut off.
   */
  state?: Record<string, unknown>;
}

/**
 * The journal value of a result recorded by hand: the result itself, or,
 * with shared-state writes, both under `agentchart.recorded`.
 *
 * @example
 * recordedValue('paid Bob', { state: { paid: 'Bob' } }); // { 'agentchart.recorded': { result: 'paid Bob', state: { paid: 'Bob' } } }
 */
export function recordedValue(result: unknown, options: RecordResultOptions = {}): unknown {
  const { state } = options;
  // A result that looks like a record itself is wrapped too, so it is read back as it was given.
  const looksRecorded = typeof result === 'object' && result !== null && Object.hasOwn(result, RECORDED);
  if (state === undefined && !looksRecorded) return result;
  if (state === undefined) return { [RECORDED]: { result, state: {} } };
  if (typeof state !== 'object' || state === null || Array.isArray(state)) {
    throw new TypeError('recordResult(callId, result, { state }): state must be an object of shared-state keys and their values.');
  }
  return { [RECORDED]: { result, state: { ...state } } };
}

/**
 * A journal result recorded with shared-state writes, read back (the journal
 * is input: a damaged record is `damaged`, never a TypeError of ours);
 * undefined for any other result.
 */
export function readRecorded(value: unknown): { result: unknown; state: [string, unknown][] } | 'damaged' | undefined {
  if (typeof value !== 'object' || value === null || !Object.hasOwn(value, RECORDED)) return undefined;
  const recorded = (value as Record<string, unknown>)[RECORDED];
  if (typeof recorded !== 'object' || recorded === null || !Object.hasOwn(recorded, 'result')) return 'damaged';
  const { result, state } = recorded as { result: unknown; state?: unknown };
  if (typeof state !== 'object' || state === null || Array.isArray(state)) return 'damaged';
  return { result, state: Object.entries(state) };
}
