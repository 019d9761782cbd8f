import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { type ChatEvent, createAgent, createGroupChat } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import type { AnyActorRef, InspectionEvent } from 'xstate';
import {
  abortInSecondNestedTurn,
  customTurns,
  nestedInStore,
  nestedTwoTurns,
  nestedWaitResumed,
  reviewOffice,
} from './fixtures/residentParticipantScenarios.js';

/** What these chats did when every delegated turn had its own actor (see `residentParticipantScenarios.ts`). */
const before = JSON.parse(readFileSync(new URL('./fixtures/residentParticipantScenarios.before.json', import.meta.url), 'utf8'));
const inspect = () => {};

describe('resident participants: the same events, results and snapshots as with an actor per delegated turn', () => {
  it('a nested chat takes two turns of the outer run', async () => {
    expect(await nestedTwoTurns()).toEqual(before.nestedTwoTurns);
    expect(await nestedTwoTurns(inspect)).toEqual(before.nestedTwoTurnsInspected);
  });

  it('a wait for a person inside the nested chat’s second turn is persisted, and resumes the same', async () => {
    expect(await nestedWaitResumed()).toEqual(before.nestedWaitResumed);
    expect(await nestedWaitResumed(inspect)).toEqual(before.nestedWaitResumedInspected);
  });

  it('an abort during the nested chat’s second turn keeps the same partial turns', async () => {
    const aborted = (await abortInSecondNestedTurn()) as { result: { reason: string; turns: { speaker: string }[] } };
    expect(aborted).toEqual(before.abortInSecondNestedTurn);
    expect(aborted.result.reason).toBe('aborted');
    expect(aborted.result.turns.at(-1)).toMatchObject({ speaker: 'team', partial: true });
    expect(await abortInSecondNestedTurn(inspect)).toEqual(before.abortInSecondNestedTurnInspected);
  });

  it('a custom participant takes three turns, and is cut short in its second turn of another run', async () => {
    expect(await customTurns()).toEqual(before.customTurns);
    expect(await customTurns(inspect)).toEqual(before.customTurnsInspected);
  });

  it('a nested chat in a chat kept in a store takes two turns', async () => {
    expect(await nestedInStore()).toEqual(before.nestedInStore);
  });
});

/** The actors an inspector sees created: their id, machine id (or invoked source) and parent's id, with the actor itself. */
function actorLog() {
  const actors: { id: string; name: string; parent: string | undefined; ref: AnyActorRef }[] = [];
  return {
    actors,
    inspect: (event: InspectionEvent) => {
      if (event.type !== '@xstate.actor') return;
      const ref = event.actorRef as AnyActorRef & { src?: unknown; logic?: { id?: string }; _parent?: { id?: string } };
      const name = typeof ref.src === 'string' ? ref.src : (ref.logic?.id ?? '?');
      actors.push({ id: ref.id, name, parent: ref._parent?.id, ref });
    },
  };
}

describe('resident participants: one actor per nested chat or custom participant for the chat run', () => {
  it('the nested chat’s two turns are taken by one actor, participant:team, with no actor per turn; stopped at the end', async () => {
    const log = actorLog();
    await nestedTwoTurns(log.inspect);
    const residents = log.actors.filter(({ name }) => name === 'nestedChat');
    const outer = log.actors.find(({ name }) => name === 'groupChat');
    expect(residents.map(({ id, parent }) => ({ id, parent }))).toEqual([{ id: 'participant:team', parent: outer?.id }]);
    expect(log.actors.filter(({ parent }) => parent === 'participant:team')).toEqual([]);
    expect(residents[0]?.ref.getSnapshot().status).toBe('stopped');
  });

  it('a custom participant’s three turns are taken by one actor, participant:counter; an abort stops its turn and the chat’s end the actor', async () => {
    const log = actorLog();
    const outcome = (await customTurns(log.inspect)) as { aborted: { reason: string } };
    expect(outcome.aborted.reason).toBe('aborted');
    // One resident per run (two runs: three turns in the first, two in the aborted one), and no actor per turn.
    const residents = log.actors.filter(({ name }) => name === 'participantTurn');
    expect(residents.map(({ id }) => id)).toEqual(['participant:counter', 'participant:counter']);
    expect(log.actors.filter(({ parent }) => parent === 'participant:counter')).toEqual([]);
    for (const { ref } of residents) expect(ref.getSnapshot().status).toBe('stopped');
  });
});

describe('a nested chat made by createGroupChat keeps one manager actor for the outer run', () => {
  it('its two turns are two runs of one inner manager, whose agents serve both; stopped when the outer run ends', async () => {
    const log = actorLog();
    await nestedTwoTurns(log.inspect);
    const managers = log.actors.filter(({ name }) => name === 'groupChat');
    // The outer manager, and one inner manager for both of the team's turns (with an actor per turn: three).
    expect(managers).toHaveLength(2);
    const [outer, inner] = managers;
    expect(inner?.parent).toBeUndefined();
    // The outer run ended in its final state; the inner manager, idle after its second run, was stopped with it.
    expect(outer?.ref.getSnapshot().status).toBe('done');
    expect(inner?.ref.getSnapshot().status).toBe('stopped');
    // The inner chat's resident agents live across its runs: one actor each (with a manager per turn: two each), stopped with it.
    const innerAgents = log.actors.filter(({ name, parent }) => name === 'agent' && parent === inner?.id);
    expect(innerAgents.map(({ id }) => id)).toEqual(['agent:researcher', 'agent:critic']);
    for (const { ref } of innerAgents) expect(ref.getSnapshot().status).toBe('stopped');
  });

  it('a run resumed inside the nested chat’s turn makes the inner manager; every manager ends with its outer run', async () => {
    const log = actorLog();
    await nestedWaitResumed(log.inspect);
    // First process: the outer manager and one inner manager for both of the team's turns (an actor per turn: three);
    // resumed: the outer manager and the inner one the resumed turn made.
    expect(log.actors.filter(({ name }) => name === 'groupChat')).toHaveLength(4);
    for (const { ref } of log.actors) expect(ref.getSnapshot().status).not.toBe('active');
  });

  it('an abort during the inner run stops the inner manager with the outer run', async () => {
    const log = actorLog();
    const aborted = (await abortInSecondNestedTurn(log.inspect)) as { result: { reason: string } };
    expect(aborted.result.reason).toBe('aborted');
    const managers = log.actors.filter(({ name }) => name === 'groupChat');
    expect(managers).toHaveLength(2);
    for (const { ref } of log.actors) expect(ref.getSnapshot().status).not.toBe('active');
  });

  it('in a chat kept in a store too', async () => {
    const log = actorLog();
    await nestedInStore(log.inspect);
    expect(log.actors.filter(({ name }) => name === 'groupChat')).toHaveLength(2);
  });
});

describe('an inner agent carried over to the next inner run', () => {
  it('writes the new run’s shared state, and its events carry the new run’s chat id', async () => {
    const { events } = (await nestedTwoTurns()) as { events: ChatEvent[] };
    const inner = events.flatMap((event) => (event.type === 'nested.event' ? [event.event] : []));
    const runs = inner.flatMap((event) => (event.type === 'chat.started' ? [event.chatId] : []));
    expect(runs).toHaveLength(2);
    const changes = inner.flatMap((event) => (event.type === 'state.changed' ? [{ chatId: event.chatId, change: event.change }] : []));
    expect(changes.map(({ chatId, change }) => ({ chatId, key: change.key, value: change.value }))).toEqual([
      { chatId: runs[0], key: 'last_researcher', value: 'researcher turn 1' },
      { chatId: runs[1], key: 'last_researcher', value: 'researcher turn 2' },
    ]);
    const toolCalls = inner.flatMap((event) => (event.type === 'agent.event' && event.event.type === 'tool.call' ? [event.chatId] : []));
    expect(toolCalls).toEqual(runs);
  });
});

describe('the outer run ends before the inner run began', () => {
  it('a chat resumed inside the nested chat and aborted at once: the inner run is aborted, its manager stopped, nothing follows chat.finished', async () => {
    const first = reviewOffice(undefined).run('Write a haiku.');
    const snapshot = await new Promise<unknown>((resolve) => {
      first.events$.subscribe((event) => {
        if (event.type === 'nested.event' && event.event.type === 'human.waiting') queueMicrotask(() => resolve(first.snapshot()));
      });
    });
    first.abort();
    await first.result;
    const log = actorLog();
    const reasons: { id: string; reason: unknown }[] = [];
    const inspect = (event: InspectionEvent) => {
      log.inspect(event);
      if (event.type !== '@xstate.snapshot') return;
      const context = (event.snapshot as { context?: { reason?: unknown; run?: unknown } }).context;
      if (context?.run !== undefined) reasons.push({ id: (event.actorRef as AnyActorRef).id, reason: context.reason });
    };
    const resumed = reviewOffice(inspect).resume(JSON.parse(JSON.stringify(snapshot)));
    const events: ChatEvent[] = [];
    resumed.events$.subscribe((event) => events.push(event));
    resumed.abort();
    const result = await resumed.result;
    expect(result.reason).toBe('aborted');
    expect(events.at(-1)?.type).toBe('chat.finished');
    const managers = log.actors.filter(({ name }) => name === 'groupChat');
    expect(managers).toHaveLength(2);
    const inner = managers[1];
    // The inner run took the abort (its result is an aborted run's) before its manager was stopped.
    expect(reasons.filter(({ id }) => id === inner?.id).at(-1)?.reason).toBe('aborted');
    expect(inner?.ref.getSnapshot().status).toBe('stopped');
    for (const { ref } of log.actors) expect(ref.getSnapshot().status).not.toBe('active');
  });
});

describe('a chat nested two deep', () => {
  /** `office` (lead, team) over four rounds; `team` (writer, subteam) over two: subteam speaks once in each of team's two runs. */
  const twoDeep = (inspect: (event: InspectionEvent) => void) => {
    const say = (name: string) => createAgent({ name, model: scriptedModel(() => ({ text: `${name} says` })) });
    const subteam = createGroupChat({
      name: 'subteam',
      description: 'Checks.',
      agents: [say('checker')],
      speakerSelection: 'round_robin',
      maxRounds: 1,
    });
    const team = createGroupChat({
      name: 'team',
      description: 'Writes.',
      agents: [say('writer'), subteam],
      speakerSelection: 'round_robin',
      maxRounds: 2,
    });
    return createGroupChat({ agents: [say('lead'), team], speakerSelection: 'round_robin', maxRounds: 4, inspect });
  };

  it('its resident participant in the middle chat serves both of that chat’s runs, and everything stops with the outer run', async () => {
    const log = actorLog();
    const result = await twoDeep(log.inspect).run('Write.').result;
    expect(result.turns.map(({ speaker }) => speaker)).toEqual(['lead', 'team', 'lead', 'team']);
    const managers = log.actors.filter(({ name }) => name === 'groupChat');
    // The outer manager, one resident manager for team's two runs, one for subteam's two runs.
    expect(managers).toHaveLength(3);
    const subteam = log.actors.filter(({ id }) => id === 'participant:subteam');
    expect(subteam.map(({ parent }) => parent)).toEqual([managers[1]?.id]);
    for (const { ref } of log.actors) expect(ref.getSnapshot().status).not.toBe('active');
  });
});
