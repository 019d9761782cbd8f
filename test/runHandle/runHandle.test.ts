import { type RunHandle, createAgent, createGroupChat } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';

/** What code written against `RunHandle` sees of a run: its event types and its result. */
async function settle<Event extends { type: string }, Result>(run: RunHandle<Event, Result>): Promise<{ types: string[]; result: Result }> {
  const types: string[] = [];
  run.events$.subscribe((event) => types.push(event.type));
  return { types, result: await run.result };
}

const agent = (name: string, text: string) => createAgent({ name, model: scriptedModel([{ text }]) });

describe('RunHandle: agent runs and chat runs started the same way', () => {
  it('an agent run and a chat run through one generic function: every event from the start, then the result', async () => {
    const agentRun = await settle(agent('solo', 'Hello.').run('Hi'));
    expect(agentRun.result.text).toBe('Hello.');
    expect(agentRun.types[0]).toBe('run.started');
    expect(agentRun.types.at(-1)).toBe('run.finished');

    const chat = createGroupChat({ agents: [agent('a', 'One.'), agent('b', 'Two.')], speakerSelection: 'round_robin', maxRounds: 2 });
    const chatRun = await settle(chat.run('Count.'));
    expect(chatRun.result.reason).toBe('max-rounds');
    expect(chatRun.types[0]).toBe('chat.started');
    expect(chatRun.types.at(-1)).toBe('chat.finished');
  });

  it('a signal aborted before the run starts ends either run as aborted, without a model call', async () => {
    const signal = AbortSignal.abort();
    const agentResult = await agent('solo', 'never').run('Hi', { signal }).result;
    expect(agentResult.stopReason).toBe('aborted');
    const chat = createGroupChat({ agents: [agent('a', 'never'), agent('b', 'never')], speakerSelection: 'round_robin', maxRounds: 2 });
    const chatResult = await chat.run('Count.', { signal }).result;
    expect(chatResult.reason).toBe('aborted');
    expect(chatResult.rounds).toBe(0);
  });

  it('abort() right after the run is created ends it before it starts', async () => {
    const run = agent('solo', 'never').run('Hi');
    run.abort();
    const { result, types } = await settle(run);
    expect(result.stopReason).toBe('aborted');
    expect(types).not.toContain('model.request');
  });
});
