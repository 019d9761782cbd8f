/**
 * The deterministic selection methods. Each picks from `eligible` (the names
 * the transitions statechart allows now, in participant order).
 */

/**
 * The next eligible participant after `last` in participant order (the first
 * eligible one when nobody has spoken or `last` is not a participant).
 *
 * @example
 * roundRobinAfter(['a', 'b', 'c'], 'b', ['a', 'c']); // 'c'
 */
export function roundRobinAfter(participants: readonly string[], last: string | undefined, eligible: NonEmpty<string>): string {
  const from = last === undefined ? -1 : participants.indexOf(last);
  for (let step = 1; step <= participants.length; step++) {
    const candidate = participants[(from + step + participants.length) % participants.length];
    if (candidate !== undefined && eligible.includes(candidate)) return candidate;
  }
  // Eligible names are participants, so the loop found one; this keeps the result a name whatever the input.
  return eligible[0];
}

/** A list with at least one element. */
export type NonEmpty<T> = readonly [T, ...T[]];

/** Whether `list` has an element (and is then typed so that its first one is not `undefined`). */
export function isNonEmpty<T>(list: readonly T[]): list is NonEmpty<T> {
  return list.length > 0;
}

/**
 * One draw of a seedable generator (mulberry32): a number in [0, 1) and the
 * next state. The state is a plain number, so it persists with the chat.
 *
 * @example
 * const { value, state } = nextRandom(42);
 */
export function nextRandom(state: number): { value: number; state: number } {
  const next = (state + 0x6d2b79f5) | 0;
  let t = next;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return { value: ((t ^ (t >>> 14)) >>> 0) / 4294967296, state: next };
}

/** A uniformly random eligible name and the generator's next state. */
export function randomPick(eligible: NonEmpty<string>, state: number): { speaker: string; state: number } {
  const draw = nextRandom(state);
  return { speaker: eligible[Math.floor(draw.value * eligible.length)] ?? eligible[0], state: draw.state };
}
