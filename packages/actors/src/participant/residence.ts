/** Something kept in a `Residence`: stopped with it. */
export interface Resident {
  stop(): void;
}

/**
 * What lives with a participant's resident actor for a chat run
 * (`participant:<name>`, see `residentParticipants.ts`): its turns find here
 * what they keep between turns — a nested chat made by `createGroupChat`
 * keeps its resident manager here (`ResidentChat`) — and everything kept
 * is stopped when the resident actor stops (the chat's end).
 *
 * @example
 * const chat = context.residence?.keep(this, () => new ResidentChat(inspect));
 */
export class Residence {
  #kept: Map<object, Resident> | undefined;
  #stopped = false;

  /** What `owner` keeps here, made by `make` the first time (or again once what it kept has stopped itself: `usable` says no). */
  keep<T extends Resident>(owner: object, make: () => T, usable: (kept: T) => boolean = () => true): T {
    if (this.#stopped) throw new Error('A stopped residence keeps nothing (a bug in agentchart).');
    this.#kept ??= new Map();
    const kept = this.#kept.get(owner) as T | undefined;
    if (kept !== undefined && usable(kept)) return kept;
    kept?.stop();
    const made = make();
    this.#kept.set(owner, made);
    return made;
  }

  /** Stops everything kept (the resident actor stopped). */
  stop(): void {
    this.#stopped = true;
    for (const kept of this.#kept?.values() ?? []) kept.stop();
    this.#kept = undefined;
  }
}
