import { createAgent, createGroupChat, observeAllRuns } from '@agentchart/actors';
import { type TraceEntryOf, createTraceRecorder, formatTimeline, memorySink, parseTrace } from '@agentchart/inspect';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';

const speaker = (name: string, text: string) => createAgent({ name, model: scriptedModel(() => ({ text })), instructions: `You are ${name}.` });

describe('recording a group chat', () => {
  it("records who speaks, their agents' events, and moves the speaker-transition machine", async () => {
    const chat = createGroupChat({
      agents: [speaker('planner', 'Plan: go.'), speaker('critic', 'APPROVED')],
      speakerSelection: 'round_robin',
      transitions: { allowed: { planner: ['critic'], critic: ['planner'] } },
      maxRounds: 4,
      terminate: 'APPROVED',
    });
    const sink = memorySink();
    let clock = 0;
    const recorder = createTraceRecorder({ sink, title: 'team', now: () => (clock += 1), startedAt: new Date(0) });
    const run = chat.run('Plan a trip.', { inspect: recorder.inspect });
    recorder.recordRun({ ...run, name: 'team', machines: { speakers: chat.transitions } });
    await run.result;
    await recorder.close();

    const trace = parseTrace(sink.toNdjson());
    const speakersActor = trace.entries.find((entry): entry is TraceEntryOf<'actor'> => entry.kind === 'actor' && entry.name === 'speakers');
    expect(speakersActor).toMatchObject({ machine: 'speakers', label: 'team' });
    // The chat's inspect option reaches the manager and every speaking agent.
    const machines = trace.entries.flatMap((entry) => (entry.kind === 'machine' ? [entry.machine] : []));
    expect(machines.sort()).toEqual(['agent', 'groupChat', 'speakers']);
    const agentLabels = trace.entries.flatMap((entry) => (entry.kind === 'actor' && entry.machine === 'agent' ? [entry.label] : []));
    expect(agentLabels).toEqual(['planner', 'critic']);
    const moves = trace.entries.flatMap((entry) =>
      entry.kind === 'snapshot' && entry.actorId === speakersActor?.actorId ? [String(entry.value)] : [],
    );
    expect(moves).toEqual(['(start)', 'planner', 'critic']);
    const agentMessages = trace.entries.flatMap((entry) =>
      entry.kind === 'run' && entry.event.type === 'message'
        ? [`${String(entry.event.speaker)}: ${JSON.stringify((entry.event.message as { content: string }).content)}`]
        : [],
    );
    expect(agentMessages).toEqual(['planner: "Plan: go."', 'critic: "APPROVED"']);
    const timeline = formatTimeline(trace);
    expect(timeline).toContain('» next speaker: planner');
    expect(timeline).toContain('» next speaker: critic');
    expect(timeline).toMatch(/■ chat finished: \S+/);
  });

  it("records a nested chat once, when it is recorded as a run of its own, with both chats' actors", async () => {
    const team = createGroupChat({
      name: 'research_team',
      agents: [speaker('researcher', 'Three hearts.'), speaker('critic', 'Verified.')],
      speakerSelection: 'round_robin',
      maxRounds: 2,
    });
    const chat = createGroupChat({ agents: [speaker('planner', 'Go.'), team], speakerSelection: 'round_robin', maxRounds: 3 });
    const sink = memorySink();
    const recorder = createTraceRecorder({ sink });
    const stop = observeAllRuns({
      // The outer manager's snapshots hold the nested chat (and its machines) as the input of its turn.
      inspect: recorder.inspect,
      onRun: (run) => {
        if (run.chatEvents$) recorder.recordRun({ chatId: run.runId, machines: run.machines, events$: run.chatEvents$ });
      },
    });
    try {
      await chat.run('Tell me about octopuses.').result;
    } finally {
      stop();
    }
    await recorder.close();
    const { entries } = parseTrace(sink.toNdjson());
    const selected = entries.flatMap((entry) =>
      entry.kind === 'run' && entry.event.type === 'speaker.selected' ? [String(entry.event.speaker)] : [],
    );
    expect(selected).toEqual(['planner', 'research_team', 'researcher', 'critic', 'planner']);
    const actors = entries.flatMap((entry) => (entry.kind === 'actor' && entry.name !== 'agent' ? [entry.name] : []));
    expect(actors.filter((name) => name === 'groupChat' || name === 'nestedChat')).toEqual(['groupChat', 'nestedChat', 'groupChat']);
  });

  it('shows a rejected selector answer and why a chat failed in the timeline', async () => {
    const timelineOf = async (chat: ReturnType<typeof createGroupChat>) => {
      const sink = memorySink();
      const recorder = createTraceRecorder({ sink });
      const run = chat.run('task');
      recorder.recordRun(run);
      await run.result;
      await recorder.close();
      return formatTimeline(parseTrace(sink.toNdjson()));
    };
    const selector = scriptedModel([{ text: 'zed' }, { text: '{"speaker":"b"}' }]);
    const picked = createGroupChat({
      agents: [speaker('a', 'A'), speaker('b', 'B')],
      speakerSelection: { method: 'auto', model: selector },
      maxRounds: 1,
    });
    expect(await timelineOf(picked)).toMatch(/✗ selector answered "zed": not one of a, b\n.*» next speaker: b \(round 1, by auto\)/s);
    const failing = createAgent({ name: 'a', model: scriptedModel([{ error: 'model crashed' }]) });
    const failed = createGroupChat({ agents: [failing], speakerSelection: 'round_robin', maxRounds: 3 });
    expect(await timelineOf(failed)).toMatch(/■ chat finished: error after 1 round\(s\) \(model crashed\)\n$/);
    const fallingBack = createGroupChat({
      agents: [speaker('a', 'A'), speaker('b', 'B')],
      speakerSelection: { method: 'auto', model: scriptedModel([{ error: 'selector down' }]) },
      maxRounds: 1,
    });
    const lines = (await timelineOf(fallingBack)).split('\n').map((line) => line.replace(/^\s*[\d.]+s\s+/, ''));
    expect(lines.filter((line) => line.includes('fell back') || line.startsWith('» next speaker'))).toEqual([
      '⚠ speaker selection fell back (model-error: selector down)',
      '» next speaker: a (round 1, by fallback)',
    ]);
  });
});
