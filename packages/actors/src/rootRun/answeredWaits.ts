/**
 * The answers a run's handle has given, by the wait they answer: a wait is
 * an object of the machine's context that is new for every wait (an agent's
 * approval requests, a chat's selection before a person's turn or a manual
 * choice), so an answer is bound to the wait it was checked against. A
 * second answer on the same wait — the same call decided twice, a second
 * `say` or `select` — is refused even when the first is not taken yet (a
 * listener answering while the machine is still processing): it is never
 * kept for a later wait that looks the same (another agent's `call_1`, the
 * same person's next turn).
 *
 * @example
 * const answered = new AnsweredWaits();
 * answered.take(context.approvals.requests, 'call_1'); // true: give it
 * answered.take(context.approvals.requests, 'call_1'); // false: refuse it
 */
export class AnsweredWaits {
  readonly #answered = new WeakMap<object, Set<string>>();

  /** Records the answer `what` (a call id, or one answer for the whole wait) on `wait`; false when it was given already. */
  take(wait: object, what: string): boolean {
    const answers = this.#answered.get(wait) ?? new Set<string>();
    if (answers.has(what)) return false;
    answers.add(what);
    this.#answered.set(wait, answers);
    return true;
  }

  /** Whether `what` was given on `wait` (a decision not taken yet still counts). */
  has(wait: object, what: string): boolean {
    return this.#answered.get(wait)?.has(what) ?? false;
  }
}
