import type { ChatEvent } from '@agentchart/actors';
import { printChatEvents } from '@agentchart/examples';
import { from } from 'rxjs';
import { describe, expect, it } from 'vitest';

describe('printChatEvents', () => {
  it('prints who was picked and why, what a person said, rejected answers and why a chat failed', () => {
    const chatId = 'chat_1';
    const events: ChatEvent[] = [
      { type: 'speaker.rejected', chatId, answer: 'bob', eligible: ['alice', 'critic'], attempt: 1 },
      { type: 'speaker.fallback', chatId, speaker: 'alice', reason: 'ineligible-answers', answers: ['bob', 'bob'] },
      { type: 'speaker.selected', chatId, round: 1, speaker: 'alice', by: 'fallback', eligible: ['alice', 'critic'] },
      { type: 'human.waiting', chatId, speaker: 'alice' },
      { type: 'human.said', chatId, speaker: 'alice', text: 'Ship it.' },
      { type: 'speaker.choice.requested', chatId, eligible: ['critic'] },
      { type: 'chat.finished', chatId, reason: 'error', rounds: 1, lastSpeaker: 'alice', error: { name: 'Error', message: 'model crashed' } },
    ];
    let output = '';
    printChatEvents(from(events), (text) => {
      output += text;
    });
    expect(output).toBe(
      [
        '✗ selector answered "bob", not one of: alice, critic (attempt 1)',
        '⚠ selector fell back to alice (ineligible-answers)',
        '',
        '── round 1: alice (by fallback; eligible: alice, critic)',
        '⏸ waiting for alice',
        '🧑 alice: Ship it.',
        '⏸ waiting for a choice of speaker: critic',
        '',
        '■ chat finished: error after 1 rounds (last speaker: alice)',
        '  error: model crashed',
        '',
      ].join('\n'),
    );
  });
});
