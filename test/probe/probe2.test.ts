import { type ChatEvent, createGroupChat, humanAgent } from '@agentchart/actors';
import { describe, it } from 'vitest';
import { record, talker } from '../groupChat/chatTestKit.js';

const brief = (e: ChatEvent): string =>
  e.type === 'agent.event' ? `${e.speaker}:${e.event.type}` : e.type === 'nested.event' ? `[${e.speaker}] ${brief(e.event)}` : e.type + ((e as { partial?: boolean }).partial ? '(partial)' : '');

function reviewTeamChat(selection: 'round_robin' | 'manual' = 'round_robin') {
  const writer = talker('writer', ['Draft: v2 is faster.']);
  const team = createGroupChat({ name: 'review_team', agents: [writer.agent, humanAgent({ name: 'alice' })], speakerSelection: selection, maxRounds: 2 });
  const planner = talker('planner', ['We need a release note.', 'Published.']);
  return createGroupChat({ agents: [planner.agent, team], speakerSelection: 'round_robin', maxRounds: 3 });
}

describe('probe2', () => {
  it('abort inside nested human.waiting handler', async () => {
    const run = reviewTeamChat().run('Ship v2.');
    const ev = record(run);
    run.events$.subscribe((e) => { if (e.type === 'nested.event' && e.event.type === 'human.waiting') run.abort(); });
    const r = await run.result;
    console.log(JSON.stringify(r.messages.slice(2)), JSON.stringify(r.turns), ev.map(brief));
  });
  it('abort inside nested choice handler', async () => {
    const run = reviewTeamChat('manual').run('Ship v2.');
    const ev = record(run);
    let n = 0;
    run.events$.subscribe((e) => { if (e.type === 'nested.event' && e.event.type === 'speaker.choice.requested') { if (n++ === 0) run.select('writer'); else run.abort(); } });
    const r = await run.result;
    console.log(JSON.stringify(r.messages.slice(2)), JSON.stringify(r.turns), ev.map(brief));
  });
  it('abort inside agent text.delta handler', async () => {
    const a = talker('a', ['Hello there.']);
    const run = createGroupChat({ agents: [a.agent], speakerSelection: 'round_robin', maxRounds: 2 }).run('t');
    const ev = record(run);
    run.events$.subscribe((e) => { if (e.type === 'agent.event' && e.event.type === 'message') run.abort(); });
    const r = await run.result;
    console.log(JSON.stringify(r.messages.slice(1)), JSON.stringify(r.turns), ev.map(brief));
  });
});
