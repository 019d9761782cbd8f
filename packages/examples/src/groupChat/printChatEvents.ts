import type { ChatEvent } from '@agentchart/actors';
import type { RunEvent } from '@agentchart/core';
import { type Observable, filter, map } from 'rxjs';
import { printEvents } from '../printEvents.js';

/**
 * Prints a group chat's events: who was picked and why, handoffs, shared
 * state changes and the end, with each speaker's own run printed by `printEvents`.
 *
 * @example
 * printChatEvents(chat.run('Plan a trip').events$);
 */
export function printChatEvents(events$: Observable<ChatEvent>, write: (text: string) => void = (t) => process.stdout.write(t)): void {
  printEvents(
    events$.pipe(
      filter((event): event is Extract<ChatEvent, { type: 'agent.event' }> => event.type === 'agent.event'),
      map((event): RunEvent => event.event),
      filter((event) => event.type !== 'state.changed'),
    ),
    write,
  );
  events$.subscribe((event) => {
    switch (event.type) {
      case 'speaker.selected':
        write(`\n── round ${event.round}: ${event.speaker} (by ${event.by}; eligible: ${event.eligible.join(', ')})\n`);
        break;
      case 'handoff':
        write(`↪ ${event.from} hands off to ${event.to} (${event.via})\n`);
        break;
      case 'state.changed':
        write(`🗂 state.${event.change.key} = ${JSON.stringify(event.change.value)}\n`);
        break;
      case 'speaker.rejected':
        write(`✗ selector answered ${JSON.stringify(event.answer)}, not one of: ${event.eligible.join(', ')} (attempt ${event.attempt})\n`);
        break;
      case 'speaker.fallback':
        write(`⚠ selector fell back to ${event.speaker} (${event.reason})\n`);
        break;
      case 'speaker.choice.requested':
        write(`⏸ waiting for a choice of speaker: ${event.eligible.join(', ')}\n`);
        break;
      case 'human.waiting':
        write(`⏸ waiting for ${event.speaker}\n`);
        break;
      case 'human.said':
        write(`🧑 ${event.speaker}: ${event.text}\n`);
        break;
      case 'chat.finished':
        write(`\n■ chat finished: ${event.reason} after ${event.rounds} rounds (last speaker: ${event.lastSpeaker ?? 'none'})\n`);
        if (event.error !== undefined) write(`  error: ${event.error.message}\n`);
        break;
      default:
        break;
    }
  });
}
