import { createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// A snapshot is never behind: `run.actor.getSnapshot()` read in an `events$` listener is the state and context of
// the moment the event was emitted, for an agent run and for a chat alike, watched or not.

const echo = defineTool({
  name: 'echo',
  description: 'Says it back.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

const twoSteps = () =>
  scriptedModel([
    { toolCalls: [{ name: 'echo', arguments: { text: 'a' } }] },
    { toolCalls: [{ name: 'echo', arguments: { text: 'b' } }] },
    { text: 'done' },
  ]);

/** What did not hold, by name: `check(ok, what)` keeps `what` when `ok` is false. */
function mismatches() {
  const wrong: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) wrong.push(what);
  };
  return { wrong, check };
}

describe('run.actor.getSnapshot() in an events$ listener', () => {
  for (const inspected of [false, true]) {
    it(`an agent run${inspected ? ' (inspected)' : ''}: every event sees the step, state and transcript it belongs to`, async () => {
      const run = createAgent({ name: 'a', model: twoSteps(), tools: [echo] }).run('Go.', inspected ? { inspect: () => {} } : {});
      const seen: string[] = [];
      const { wrong, check } = mismatches();
      // Events go out once the transition that emitted them is taken: the snapshot is the one that transition left.
      run.events$.subscribe((event) => {
        const snapshot = run.actor.getSnapshot();
        const { context } = snapshot;
        if (event.type === 'model.request') check(snapshot.value === 'thinking' && context.step === event.step, 'model.request');
        if (event.type === 'tool.call') {
          check(snapshot.value === 'acting' && context.step === event.step, 'tool.call state');
          check(
            context.batch.calls.some((call) => call.id === event.call.id),
            'tool.call batch',
          );
        }
        // The batch's last result ends the step: its results are in the transcript, and the next model call is made.
        if (event.type === 'tool.result') {
          check(
            context.messages.some((message) => message.role === 'tool' && message.toolCallId === event.callId),
            'tool.result',
          );
        }
        if (event.type === 'message') check(JSON.stringify(context.messages).includes(JSON.stringify(event.message)), 'message');
        if (event.type === 'run.finished') check(snapshot.status === 'done', 'run.finished');
        seen.push(`${event.type}@${String(snapshot.value)}`);
      });
      const result = await run.result;
      expect(result.text).toBe('done');
      expect(wrong).toEqual([]);
      expect(seen).toContain('tool.call@acting');
      expect(seen.filter((entry) => entry.startsWith('model.request@thinking'))).toHaveLength(3);
    });

    it(`a chat${inspected ? ' (inspected)' : ''}: every event sees the manager's state, speaker and turns of that moment`, async () => {
      const writer = createAgent({ name: 'writer', model: twoSteps(), tools: [echo] });
      const critic = createAgent({ name: 'critic', model: scriptedModel(() => ({ text: 'fine' })) });
      const chat = createGroupChat({ agents: [writer, critic], speakerSelection: 'round_robin', maxRounds: 2 });
      const run = chat.run('Write.', inspected ? { inspect: () => {} } : {});
      let checked = 0;
      const { wrong, check } = mismatches();
      run.events$.subscribe((event) => {
        const snapshot = run.actor.getSnapshot();
        const { context } = snapshot;
        if (event.type === 'speaker.selected') check(context.speaker === event.speaker && context.rounds === event.round - 1, 'speaker.selected');
        if (event.type === 'agent.event') check(snapshot.matches({ speaking: 'agent' }) && context.speaker === event.speaker, 'agent.event');
        if (event.type === 'turn.finished') check(context.rounds === event.round && context.turns.at(-1)?.speaker === event.speaker, 'turn.finished');
        if (event.type === 'chat.finished') check(snapshot.status === 'done', 'chat.finished');
        checked += 1;
      });
      const result = await run.result;
      expect(result.reason).toBe('max-rounds');
      expect(wrong).toEqual([]);
      expect(checked).toBeGreaterThan(10);
      await chat.close();
    });
  }
});
