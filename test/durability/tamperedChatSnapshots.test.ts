import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { makeCleanerChat } from '../groupChat/fixtures/cleanerChat.js';

const fixture = () => JSON.parse(readFileSync(new URL('../groupChat/fixtures/cleanerChat.snapshot.v2.json', import.meta.url), 'utf8'));

/** Resumes an edited chat snapshot; returns the error's code and message (and checks nothing ran). */
function refusal(snapshot: unknown): { code: string; message: string; path?: unknown } {
  const executed: string[] = [];
  try {
    makeCleanerChat(executed).chat.resume(snapshot);
  } catch (error) {
    expect(executed).toEqual([]);
    const { code, message, details } = error as { code: string; message: string; details: { path?: unknown } };
    return { code, message, path: details.path };
  }
  throw new Error('the tampered chat snapshot was resumed');
}

describe('tampered group chat snapshots end in a clear error and execute nothing', () => {
  it('a call added to the waiting agent’s batch is refused by the agent-run checks', () => {
    const snapshot = fixture();
    const { context } = snapshot.waiting.run.machine;
    context.batch.calls.push({ id: 'evil', name: 'delete_file', arguments: { path: '/' } });
    context.batch.outcomes.push(null);
    context.batch.pending = 2;
    expect(refusal(snapshot)).toMatchObject({ code: 'RUN_SNAPSHOT_INVALID', path: 'machine.context.batch.calls' });
  });

  it('a decision slipped into the waiting agent’s run is refused instead of hanging', () => {
    const snapshot = fixture();
    snapshot.waiting.run.machine.context.approvals.decisions.d1 = { approved: true };
    expect(refusal(snapshot)).toMatchObject({ code: 'RUN_SNAPSHOT_INVALID', path: 'machine.context.approvals.decisions' });
  });

  it('a turn outside the transcript, overlapping turns or a stranger as last speaker are refused with their path', () => {
    const beyond = fixture();
    beyond.turns[0].end = beyond.messages.length + 5;
    expect(refusal(beyond)).toMatchObject({ code: 'GROUP_CHAT_SNAPSHOT_INVALID', path: 'turns.0' });
    const overlapping = fixture();
    overlapping.turns.push({ ...overlapping.turns[0] });
    expect(refusal(overlapping).path).toBe(`turns.${overlapping.turns.length - 1}`);
    const stranger = fixture();
    stranger.lastSpeaker = 'mallory';
    expect(refusal(stranger)).toMatchObject({ code: 'GROUP_CHAT_SNAPSHOT_INVALID', path: 'lastSpeaker' });
  });

  it('a person’s wait turned onto an agent is refused by the person’s turn persistence, before the agent could run', () => {
    const snapshot = fixture();
    snapshot.waiting = { kind: 'human', speaker: 'cleaner' };
    expect(refusal(snapshot)).toEqual({
      code: 'GROUP_CHAT_SNAPSHOT_INVALID',
      message: 'The snapshot waits for a person’s turn of "cleaner", who is not a person of this chat. Resume it with the chat that persisted it.',
      path: undefined,
    });
  });

  it('a wait inside a nested chat named for an agent is refused', () => {
    const snapshot = fixture();
    snapshot.version = 3;
    snapshot.waiting = { kind: 'nested', speaker: 'cleaner', snapshot: { ...fixture(), waiting: { kind: 'choice', eligible: ['planner'] } } };
    expect(refusal(snapshot)).toMatchObject({
      code: 'GROUP_CHAT_SNAPSHOT_INVALID',
      message:
        'The snapshot waits inside "cleaner", which is not a nested group chat of this chat that can resume. Resume it with the chat that persisted it.',
    });
  });
});
