import { AgentchartError } from '@agentchart/core';

/** One problem found in a chat's speaker transitions. */
export interface TransitionProblem {
  kind: 'unknown-participant' | 'no-way-out' | 'never-speaks' | 'handoff-not-allowed';
  /** Errors stop `createGroupChat`; warnings are returned on `chat.warnings`. */
  severity: 'error' | 'warning';
  /** The participant the problem is about. */
  participant: string;
  /**
   * The shortest sequence of speakers from the start that shows the problem:
   * for `no-way-out`, the speakers up to the dead end; for `never-speaks`,
   * the speakers that can speak (none of them leads there).
   */
  path?: string[];
  message: string;
}

/** The speaker transitions (or handoffs) of a group chat name unknown participants or hand off where no transition goes; `problems` lists each. */
export class TransitionGraphError extends AgentchartError {
  constructor(readonly problems: readonly TransitionProblem[]) {
    super(
      'GROUP_CHAT_TRANSITIONS_INVALID',
      `The group chat's speaker transitions have ${problems.length} problem(s):\n${problems.map((problem) => `- ${problem.message}`).join('\n')}`,
      { problems },
    );
  }
}

/** `say`, `select` or `snapshot` was called while the chat did not wait for it. */
export class ChatNotWaitingError extends AgentchartError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('GROUP_CHAT_NOT_WAITING', message, details);
  }
}

/** A selection function (or `run.select`) chose a name that may not speak now. */
export class IneligibleSpeakerError extends AgentchartError {
  constructor(speaker: string, eligible: readonly string[], chooser = 'The selection function') {
    super(
      'GROUP_CHAT_SPEAKER_INELIGIBLE',
      `${chooser} chose ${JSON.stringify(speaker)}, who may not speak now. ` + `Choose one of: ${eligible.join(', ')} (or 'terminate').`,
      { speaker, eligible },
    );
  }
}

/** A persisted chat cannot be resumed: wrong format or version, or it names someone who is not a participant. */
export class ChatSnapshotError extends AgentchartError {
  constructor(message: string, details: Record<string, unknown> = {}) {
    super('GROUP_CHAT_SNAPSHOT_INVALID', message, details);
  }
}

/**
 * Messages given to `chat.run` are attributed (`name`) to someone who is not
 * a participant of the chat; `speakers` lists each with the index of its first
 * message. Pass `{ unknownSpeakers: 'context' }` to keep them as context.
 */
export class UnknownSpeakerError extends AgentchartError {
  constructor(
    readonly speakers: readonly { name: string; index: number }[],
    participants: readonly string[],
    caller = 'chat.run(input)',
  ) {
    const named = speakers.map(({ name, index }) => `${JSON.stringify(name)} (message ${index})`).join(', ');
    super(
      'GROUP_CHAT_SPEAKER_UNKNOWN',
      `${caller}: ${named} ${speakers.length === 1 ? 'is not a participant' : 'are not participants'} of this chat (participants: ${participants.join(', ')}). ` +
        "Give such messages a participant's name, remove their `name` to make them context, " +
        "or pass { unknownSpeakers: 'context' } to keep them as context that starts no turn.",
      { speakers: speakers.map((speaker) => ({ ...speaker })), participants: [...participants] },
    );
  }
}
