import type { AnyStateMachine } from 'xstate';
import { machineGraph } from '../diagrams/machineGraph.js';
import { type SanitizeOptions, createSanitizer } from '../sanitize/sanitizeValue.js';
import { type MachineKeys, type UntimedEntry, createMachineKeys, withType } from './inspectionEntries.js';

/** An event of a run's `events$`: an agent's run event or a group chat's event. */
export interface AnyRunEvent {
  type: string;
}

/**
 * Turns the events of a run's `events$` into trace entries. A group chat's
 * `agent.event` and `nested.event` wrappers are unwrapped (the inner event is
 * recorded, with `speaker`), and when the run shows its machines
 * (`machines.speakers`), each `speaker.selected` moves that machine's state.
 *
 * @example
 * const toEntries = runEntries('chat-1', { name: 'team', machines: { speakers: chat.transitions } });
 * chatRun.events$.subscribe((event) => toEntries.event(event).forEach(write));
 */
export function runEntries(
  runKey: string,
  run: { readonly name?: string; readonly machines?: Readonly<Record<string, AnyStateMachine>> } = {},
  sanitize: SanitizeOptions = {},
  machineKeys: MachineKeys = createMachineKeys(),
  /** Chats recorded as runs of their own: their events inside a parent's `nested.event` are not recorded twice. */
  recordedChats: ReadonlySet<string> = new Set(),
): { start(): UntimedEntry[]; event(event: AnyRunEvent): UntimedEntry[] } {
  const machines = run.machines ?? {};
  const clean = createSanitizer(sanitize);
  const actorId = (key: string) => `run:${runKey}/${key}`;
  const speakers = machines.speakers;
  const snapshot = (state: string): UntimedEntry | undefined =>
    speakers && {
      kind: 'snapshot',
      actorId: actorId('speakers'),
      status: 'active',
      eventType: 'speaker.selected',
      value: state,
      activeStates: [speakers.id, `${speakers.id}.${state}`],
    };

  const unwrap = (event: AnyRunEvent, speaker?: string): UntimedEntry[] => {
    const record = event as AnyRunEvent & { event?: AnyRunEvent & { chatId?: unknown }; speaker?: unknown };
    if (event.type === 'nested.event' && typeof record.event?.chatId === 'string' && recordedChats.has(record.event.chatId)) return [];
    if ((event.type === 'agent.event' || event.type === 'nested.event') && record.event && typeof record.event.type === 'string') {
      return unwrap(record.event, typeof record.speaker === 'string' ? record.speaker : speaker);
    }
    const sanitized = withType(event, clean(event));
    const entries: UntimedEntry[] = [
      { kind: 'run', event: speaker !== undefined && !('speaker' in sanitized) ? { ...sanitized, speaker } : sanitized },
    ];
    if (event.type === 'speaker.selected' && typeof record.speaker === 'string') {
      const moved = snapshot(record.speaker);
      if (moved) entries.push(moved);
    }
    return entries;
  };

  return {
    start: () => {
      const entries: UntimedEntry[] = [];
      for (const [key, machine] of Object.entries(machines)) {
        const graph = machineGraph(machine);
        const claimed = machineKeys.claim(machine, graph);
        if (claimed.isNew) entries.push({ kind: 'machine', machine: claimed.key, graph });
        entries.push({ kind: 'actor', actorId: actorId(key), name: key, machine: claimed.key, label: run.name ?? runKey });
      }
      // The speaker-transition machine is not an actor of the chat: its state follows `speaker.selected`.
      const initial = speakers?.root.initial?.target[0]?.key;
      const start = initial === undefined ? undefined : snapshot(initial);
      if (start) entries.push(start);
      return entries;
    },
    event: (event) => unwrap(event),
  };
}
