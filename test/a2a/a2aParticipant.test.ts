import { createAgent, createGroupChat } from '@agentchart/actors';
import { A2aError, type A2aServer, a2aParticipant, a2aTool, serveA2a } from '@agentchart/a2a';
import { scriptedModel } from '@agentchart/providers';
import { afterEach, describe, expect, it } from 'vitest';
import { type ToolLog, releaseTeam, slowWorker } from './a2aTeams.js';
import { type RemoteStep, sdkRemoteAgent } from './sdkRemoteAgent.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function remote(steps: (index: number) => RemoteStep) {
  const agent = await sdkRemoteAgent('booker', (_received, index) => steps(index));
  closers.push(agent.close);
  return agent;
}

function plannerModel(lines: string[]) {
  return scriptedModel(lines.map((text) => ({ text })));
}

describe('a2aParticipant: a remote A2A agent in a group chat', () => {
  it('sends the task and every message since its previous turn, in one context per chat run; its answer is the turn', async () => {
    const booker = await remote((index) => ({ answer: ['Booked the 9:00 train.', 'Added a return at 18:00.', 'Booked a hotel.'][index] ?? 'none' }));
    const participant = a2aParticipant({ name: 'booker', url: booker.url });
    const planner = createAgent({
      name: 'planner',
      model: plannerModel(['Go to Lyon on Friday.', 'Come back the same day.', 'Stay overnight instead.']),
    });
    const chat = createGroupChat({ agents: [planner, participant], speakerSelection: 'round_robin', maxRounds: 4 });

    const result = await chat.run('Plan a trip to Lyon.').result;
    expect(result.reason).toBe('max-rounds');
    expect(result.messages.filter((message) => message.role === 'assistant').map((message) => [message.name, message.content])).toEqual([
      ['planner', 'Go to Lyon on Friday.'],
      ['booker', 'Booked the 9:00 train.'],
      ['planner', 'Come back the same day.'],
      ['booker', 'Added a return at 18:00.'],
    ]);
    expect(booker.received.map((entry) => entry.texts)).toEqual([
      ['Plan a trip to Lyon.', 'planner: Go to Lyon on Friday.'],
      ['planner: Come back the same day.'],
    ]);
    const [first, second] = booker.received;
    expect(second?.contextId).toBe(first?.contextId);
    expect([first?.continued, second?.continued]).toEqual([false, false]);

    const again = createGroupChat({
      agents: [createAgent({ name: 'planner', model: plannerModel(['Stay overnight instead.']) }), participant],
      speakerSelection: 'round_robin',
      maxRounds: 2,
    });
    await again.run('Plan a trip to Nice.').result;
    expect(booker.received[2]?.texts).toEqual(['Plan a trip to Nice.', 'planner: Stay overnight instead.']);
    expect(booker.received[2]?.contextId).not.toBe(first?.contextId);
  });

  it("makes the chat wait while the remote task is input-required; a person's answer goes to the same task", async () => {
    const booker = await remote((index) => (index === 0 ? { ask: 'Which date?' } : { answer: 'Booked for May 3.' }));
    const planner = createAgent({ name: 'planner', model: plannerModel(['Book the train.']) });
    const chat = createGroupChat({
      agents: [planner, a2aParticipant({ name: 'booker', url: booker.url })],
      speakerSelection: 'round_robin',
      maxRounds: 2,
    });
    const run = chat.run('Plan a trip.');
    const waited = new Promise<unknown>((resolve) => {
      const timer = setInterval(() => {
        const waiting = run.waiting();
        if (waiting === undefined) return;
        clearInterval(timer);
        resolve(waiting);
        run.say('May 3');
      }, 5);
    });
    expect(await waited).toEqual({ kind: 'human', speaker: 'booker', within: ['booker'] });
    const result = await run.result;
    expect(result.messages.at(-1)).toMatchObject({ role: 'assistant', name: 'booker', content: 'Booked for May 3.' });
    expect(booker.received.map((entry) => [entry.texts, entry.continued])).toEqual([
      [['Plan a trip.', 'planner: Book the train.'], false],
      [['May 3'], true],
    ]);
    expect(booker.received[1]?.taskId).toBe(booker.received[0]?.taskId);
  });

  it('persists a wait with the chat: the resumed chat answers the same remote task', async () => {
    const booker = await remote((index) => (index === 0 ? { ask: 'Which date?' } : { answer: 'Booked for May 3.' }));
    const chatOf = () =>
      createGroupChat({
        agents: [createAgent({ name: 'planner', model: plannerModel(['Book the train.']) }), a2aParticipant({ name: 'booker', url: booker.url })],
        speakerSelection: 'round_robin',
        maxRounds: 2,
      });
    const first = chatOf().run('Plan a trip.');
    await new Promise<void>((resolve) => {
      const timer = setInterval(() => {
        if (first.waiting() === undefined) return;
        clearInterval(timer);
        resolve();
      }, 5);
    });
    const snapshot = JSON.parse(JSON.stringify(first.snapshot()));
    first.abort();
    await first.result;
    const resumed = chatOf().resume(snapshot);
    expect(resumed.waiting()).toEqual({ kind: 'human', speaker: 'booker', within: ['booker'] });
    resumed.say('May 3');
    const result = await resumed.result;
    expect(result.messages.at(-1)).toMatchObject({ name: 'booker', content: 'Booked for May 3.' });
    expect(booker.received.map((entry) => [entry.texts, entry.continued, entry.taskId === booker.received[0]?.taskId])).toEqual([
      [['Plan a trip.', 'planner: Book the train.'], false, true],
      [['May 3'], true, true],
    ]);
  });

  it('cancels the remote task when the chat is aborted during its turn: the remote run and its tool are aborted', async () => {
    const log: ToolLog = [];
    let started = () => {};
    const toolStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const server: A2aServer = await serveA2a({ agents: [slowWorker(log, started)] });
    closers.push(() => server.close());
    const lead = createAgent({ name: 'lead', model: plannerModel(['Crunch the numbers.']) });
    const chat = createGroupChat({
      agents: [lead, a2aParticipant({ name: 'cruncher', url: server.urlOf('worker') })],
      speakerSelection: 'round_robin',
      maxRounds: 2,
    });
    const run = chat.run('Report.');
    await toolStarted;
    run.abort();
    const result = await run.result;
    expect(result.reason).toBe('aborted');
    await expect.poll(() => log).toEqual(['crunch started', 'crunch aborted']);
  });

  it.each([
    [{ fail: 'No seats left.' } as RemoteStep, 'A2A_REMOTE_FAILED', /^The A2A task \S+ at \S+ ended TASK_STATE_FAILED: No seats left\.$/],
    [{ cancel: 'Operator stopped it.' } as RemoteStep, 'A2A_REMOTE_CANCELED', /^The A2A task \S+ at \S+ was canceled: Operator stopped it\.$/],
  ])('fails the turn when the remote task ends %o, with an error the chat reports', async (step, code, message) => {
    const booker = await remote(() => step);
    const planner = createAgent({ name: 'planner', model: plannerModel(['Book the train.']) });
    const chat = createGroupChat({
      agents: [planner, a2aParticipant({ name: 'booker', url: booker.url })],
      speakerSelection: 'round_robin',
      maxRounds: 2,
    });
    const result = await chat.run('Plan a trip.').result;
    expect(result.reason).toBe('error');
    expect(result.error?.message).toMatch(message);
    expect(result.error?.code).toBe(code);
  });

  it('turns the approvals of a remote agentchart chat into approval waits of this chat; the approved call runs once there', async () => {
    const log: ToolLog = [];
    const server: A2aServer = await serveA2a({ chats: [releaseTeam(log)] });
    closers.push(() => server.close());
    const lead = createAgent({ name: 'lead', model: plannerModel(['Ship v2 today.']) });
    const chat = createGroupChat({
      agents: [lead, a2aParticipant({ name: 'release', url: server.urlOf('release_team') })],
      speakerSelection: 'round_robin',
      maxRounds: 2,
    });
    const run = chat.run('Release v2.');
    const waited = new Promise<unknown>((resolve) => {
      const timer = setInterval(() => {
        const waiting = run.waiting();
        if (waiting === undefined) return;
        clearInterval(timer);
        resolve(waiting);
        run.approve('deploy-1');
      }, 5);
    });
    expect(await waited).toEqual({
      kind: 'approval',
      speaker: 'release',
      requests: [{ id: 'deploy-1', toolName: 'deploy', arguments: { version: 'v2' }, step: 0 }],
      within: ['release'],
    });
    const result = await run.result;
    expect(result.messages.at(-1)).toMatchObject({ name: 'release', content: 'Reviewed: v2 release is done.' });
    expect(log).toEqual(['run_checks', 'deploy v2']);
  });
});

describe('a2aTool: a remote A2A agent as a tool', () => {
  it("names the tool after the card, sends the input as a task and returns the answer; a failed task is the model's error result", async () => {
    const booker = await remote((index) => (index === 0 ? { answer: 'Booked the 9:00 train.' } : { fail: 'No seats left.' }));
    const model = scriptedModel([
      { toolCalls: [{ id: 't1', name: 'booker', arguments: { input: 'Book a train to Lyon.' } }] },
      { toolCalls: [{ id: 't2', name: 'booker', arguments: { input: 'Book another.' } }] },
      { text: 'One booked, one failed.' },
    ]);
    const agent = createAgent({ name: 'assistant', model, toolSources: [a2aTool({ url: booker.url })] });
    const result = await agent.run('Book trains.').result;
    expect(model.requests[0]?.tools.map((tool) => [tool.name, tool.description])).toEqual([
      ['booker', 'The remote booker. (skills: book: Books trips.) Gives it a task and returns its answer.'],
    ]);
    expect(result.toolCalls.map((record) => [record.content, record.isError])).toEqual([
      ['Booked the 9:00 train.', false],
      [expect.stringMatching(/ended TASK_STATE_FAILED: No seats left\.$/), true],
    ]);
    expect(booker.received.map((entry) => entry.texts)).toEqual([['Book a train to Lyon.'], ['Book another.']]);
  });

  it('refuses a URL that is not http(s)', () => {
    expect(() => a2aParticipant({ name: 'x', url: 'ftp://example.test/' })).toThrow(/`url` must be an http\(s\) URL/);
    expect(A2aError.name).toBe('A2aError');
  });
});
