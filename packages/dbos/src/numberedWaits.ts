import type { ChatWaiting } from '@agentchart/actors';
import type { DurableWaiting } from './durableWaiting.js';
import { commandMisfit, describeWaiting } from './commandMisfit.js';
import { type ControlMessage, parseControlMessage } from './controlMessage.js';

/** A wait as the workflow sees it, before it is numbered. */
export type UnnumberedWaiting = ChatWaiting | Omit<Extract<DurableWaiting, { kind: 'in-doubt' }>, 'sequence'>;

/** What to do with a received command: apply it, ignore it (it repeats a decision this wait already took), or refuse it. */
export type CommandVerdict = { kind: 'apply'; message: ControlMessage } | { kind: 'repeat' } | { kind: 'refuse'; error: string };

interface OpenWait {
  sequence: number;
  key: string;
  /** The calls of an approval wait still to decide, and those decided. */
  pending: Set<string>;
  decided: Set<string>;
}

/**
 * The chat's waits for a person, numbered 1, 2, … in the order they open
 * (the same on every replay of the workflow: the numbers come from its
 * deterministic flow). A command names the number of the wait it answers;
 * it is applied to that wait only, while it is open, and once: a command
 * for a wait that is over, or not yet open, is refused (never kept for a later
 * wait), and a repeated decision on a call this wait already decided is ignored.
 * An approval wait stays one wait while calls of its batch are still to decide.
 *
 * @example
 * const waits = numberedWaits();
 * const waiting = waits.number(run.waiting()!); // { ...wait, sequence: 1 }
 * const verdict = waits.check(message);
 */
export function numberedWaits() {
  let last = 0;
  let open: OpenWait | undefined;
  const continues = (waiting: UnnumberedWaiting, key: string) =>
    open !== undefined &&
    open.key === key &&
    (waiting.kind !== 'approval' || waiting.requests.every((request) => open?.pending.has(request.id) === true));
  return {
    /** Numbers `waiting`: the open wait's number while it continues, the next one otherwise. */
    number(waiting: UnnumberedWaiting): DurableWaiting {
      const key = keyOf(waiting);
      if (!continues(waiting, key)) {
        last += 1;
        const ids = waiting.kind === 'approval' ? waiting.requests.map((request) => request.id) : [];
        open = { sequence: last, key, pending: new Set(ids), decided: new Set() };
      }
      return { ...waiting, sequence: last } as DurableWaiting;
    },
    /** Checks a received command against the open wait `waiting` (the one `number` returned last). */
    check(waiting: DurableWaiting, received: unknown): CommandVerdict {
      let message: ControlMessage;
      try {
        message = parseControlMessage(received);
      } catch (error) {
        return { kind: 'refuse', error: (error as Error).message };
      }
      const now = `the chat waits for ${describeWaiting(waiting)} (wait ${waiting.sequence})`;
      if (message.wait === undefined) {
        return { kind: 'refuse', error: `The command names no wait; ${now}. Send it with \`wait\` (the chat client fills it in).` };
      }
      if (message.wait !== waiting.sequence) {
        const state = message.wait < waiting.sequence ? 'is over' : 'has not opened';
        return { kind: 'refuse', error: `The command answers wait ${message.wait}, which ${state}; ${now}. Nothing was applied.` };
      }
      if ((message.type === 'approve' || message.type === 'reject') && open?.decided.has(message.id)) return { kind: 'repeat' };
      const misfit = commandMisfit(waiting, message);
      if (misfit !== undefined) return { kind: 'refuse', error: `Not an answer to this wait (${misfit}); ${now}.` };
      return { kind: 'apply', message };
    },
    /** `message` was applied to the open wait: returns true when that wait is over. */
    applied(message: ControlMessage): boolean {
      if (open !== undefined && (message.type === 'approve' || message.type === 'reject') && open.pending.delete(message.id)) {
        open.decided.add(message.id);
        if (open.pending.size > 0) return false;
      }
      open = undefined;
      return true;
    },
  };
}

/** What makes two waits the same one: its kind, where, whose, and (for an approval) the batch's model step. */
function keyOf(waiting: UnnumberedWaiting): string {
  if (waiting.kind === 'in-doubt') return JSON.stringify(['in-doubt', waiting.id]);
  const step = waiting.kind === 'approval' ? waiting.requests[0]?.step : undefined;
  return JSON.stringify([waiting.kind, waiting.within ?? [], 'speaker' in waiting ? waiting.speaker : waiting.eligible, step]);
}
