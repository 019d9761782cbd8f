import { createGroupChat, observeAllRuns } from '@agentchart/actors';
import type { RunEvent } from '@agentchart/core';
import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { talker } from './chatTestKit.js';

describe('inspection', () => {
  it('the inspect option sees the manager and every speaking agent (the shared state when it is made); run observers see the chat', async () => {
    const actors: string[] = [];
    const chat = createGroupChat({
      name: 'duo',
      agents: [talker('a', ['A']).agent, talker('b', ['B']).agent],
      speakerSelection: 'round_robin',
      maxRounds: 2,
      inspect: (event: InspectionEvent) => {
        if (event.type === '@xstate.actor') actors.push(String((event.actorRef as { logic?: { id?: string } }).logic?.id));
      },
    });
    const observed: { runId: string; name: string | undefined; types: string[] }[] = [];
    const stop = observeAllRuns({
      onRun: (run) => {
        const entry = { runId: run.runId, name: run.name, types: [] as string[] };
        observed.push(entry);
        run.events$.subscribe((event: RunEvent) => entry.types.push(event.type));
      },
    });
    const result = await chat.run('task').result;
    stop();
    expect(actors.filter((id) => id === 'groupChat' || id === 'sharedState' || id === 'agent')).toEqual(['groupChat', 'agent', 'agent']);
    expect(observed.map(({ runId, name }) => ({ runId, name }))).toEqual([{ runId: result.chatId, name: 'duo' }]);
    expect(observed[0]?.types.filter((type) => type === 'run.finished')).toHaveLength(2);
  });

  it("a run's inspect option also sees a nested chat's manager and agents", async () => {
    const team = createGroupChat({ name: 'team', agents: [talker('inner', ['I']).agent], speakerSelection: 'round_robin', maxRounds: 1 });
    const chat = createGroupChat({ agents: [talker('outer', ['O']).agent, team], speakerSelection: 'round_robin', maxRounds: 2 });
    const actors: string[] = [];
    const inspect = (event: InspectionEvent) => {
      if (event.type === '@xstate.actor') actors.push(String((event.actorRef as { logic?: { id?: string } }).logic?.id));
    };
    expect(await chat.run('task', { inspect }).result).toMatchObject({ reason: 'max-rounds', lastSpeaker: 'team' });
    expect(actors.filter((id) => id === 'groupChat' || id === 'agent')).toEqual(['groupChat', 'agent', 'groupChat', 'agent']);
  });

  it('an inspect option that throws changes nothing in an agent run or a chat, even when it is the only one', async () => {
    const inspect = () => {
      throw new Error('inspector failed');
    };
    const agentResult = await talker('solo', ['Hi.']).agent.run('task', { inspect }).result;
    expect(agentResult).toMatchObject({ stopReason: 'completed', text: 'Hi.' });
    const chat = createGroupChat({ agents: [talker('a', ['A']).agent], speakerSelection: 'round_robin', maxRounds: 1 });
    expect(await chat.run('task', { inspect }).result).toMatchObject({ reason: 'max-rounds', rounds: 1 });
  });
});
