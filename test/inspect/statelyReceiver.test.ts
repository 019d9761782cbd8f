import { createGroupChat } from '@agentchart/actors';
import { type AnyTool, defineTool } from '@agentchart/core';
import { type StatelyInspector, inspectWithStately } from '@agentchart/inspect';
import { scriptedModel } from '@agentchart/providers';
import { type StatelyInspectionEvent, createWebSocketReceiver } from '@statelyai/inspect';
import { afterEach, describe, expect, it } from 'vitest';
import { type AnyActorRef, type InspectionEvent, createActor, createMachine } from 'xstate';
import { z } from 'zod';
import { talker } from '../groupChat/chatTestKit.js';
import { SECRET, lookup, lookupAgent } from './calculatorRun.js';

/**
 * The Stately inspector's own receiving side (`createWebSocketReceiver` of
 * `@statelyai/inspect`) connected to `inspectWithStately`'s bridge on a
 * loopback port, checked against what XState itself reported.
 */

const LEAKED_KEY = 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12';

/** What XState reported: per actor system, each actor that was named in an event or snapshot, with its parent. */
function xstateOracle() {
  const systems = new Map<object, Map<string, string | undefined>>();
  const note = (actor: AnyActorRef) => {
    const actors = systems.get(actor.system) ?? new Map<string, string | undefined>();
    systems.set(actor.system, actors);
    actors.set(actor.sessionId, actor._parent?.sessionId);
  };
  return {
    systems,
    observe(event: InspectionEvent) {
      if (event.type !== '@xstate.event' && event.type !== '@xstate.snapshot') return;
      note(event.actorRef as AnyActorRef);
      if (event.type === '@xstate.event' && event.sourceRef) note(event.sourceRef as AnyActorRef);
    },
    get count() {
      return [...systems.values()].reduce((sum, actors) => sum + actors.size, 0);
    },
  };
}

/** A receiver and everything it got, raw and parsed. */
function receiver(url: string) {
  const messages: StatelyInspectionEvent[] = [];
  createWebSocketReceiver({ server: url.replace('http://', 'ws://') }).subscribe((message) => messages.push(message));
  return messages;
}

async function until(condition: () => boolean, what: string): Promise<void> {
  for (let waited = 0; !condition(); waited += 10) {
    if (waited > 10_000) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** A tool that holds the run until the test lets it go: the inspector connects while the run waits. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  let reached!: () => void;
  const arrived = new Promise<void>((resolve) => {
    reached = resolve;
  });
  const tool = defineTool({
    name: 'wait_for_inspector',
    description: 'Waits for the inspector.',
    parameters: z.object({}),
    execute: async () => {
      reached();
      await opened;
      return 'inspector here';
    },
  });
  return { tool, arrived, open };
}

/**
 * Checks the protocol as the Stately inspector reads it and returns the
 * counts: every actor announced once, under a unique session id, with a
 * parseable definition and the parent XState reported; every event and
 * snapshot after its actor's announcement; no secret anywhere.
 */
function checkReceived(messages: readonly StatelyInspectionEvent[], oracle: ReturnType<typeof xstateOracle>) {
  const announced = new Map<string, { parentId: string | undefined; name: string }>();
  let events = 0;
  let snapshots = 0;
  for (const message of messages) {
    expect(message._version).toBe('0.7.2');
    expect(message.sessionId).toMatch(/^s\d+\/x:\d+$/);
    if (message.type === '@xstate.actor') {
      expect(announced.has(message.sessionId), `${message.sessionId} announced twice`).toBe(false);
      if (message.parentId !== undefined) expect(announced.has(message.parentId), `parent of ${message.sessionId} announced first`).toBe(true);
      expect(typeof message.definition).toBe('string');
      expect(() => JSON.parse(message.definition as string)).not.toThrow();
      expect(message.snapshot.status).toMatch(/^(active|done|error|stopped)$/);
      announced.set(message.sessionId, { parentId: message.parentId, name: message.name });
    } else {
      expect(announced.has(message.sessionId), `${message.type} names ${message.sessionId}, not announced before`).toBe(true);
      if (message.type === '@xstate.event') {
        events += 1;
        if (message.sourceId !== undefined) expect(announced.has(message.sourceId), `source ${message.sourceId} announced first`).toBe(true);
      } else snapshots += 1;
      expect(typeof message.event.type).toBe('string');
    }
  }
  // The parents are XState's: within one system (one prefix), the session ids and their parents are those XState reported.
  const bySystem = new Map<string, Map<string, string | undefined>>();
  for (const [sessionId, { parentId }] of announced) {
    const [system = '', raw = ''] = sessionId.split('/');
    if (parentId !== undefined) expect(parentId.split('/')[0]).toBe(system);
    const actors = bySystem.get(system) ?? new Map<string, string | undefined>();
    bySystem.set(system, actors);
    actors.set(raw, parentId?.split('/')[1]);
  }
  const reported = [...oracle.systems.values()].map((actors) => Object.fromEntries(actors));
  expect([...bySystem.values()].map((actors) => Object.fromEntries(actors))).toEqual(expect.arrayContaining(reported));
  expect(bySystem.size).toBe(oracle.systems.size);
  expect(announced.size).toBe(oracle.count);

  const all = JSON.stringify(messages);
  expect(all).not.toContain(SECRET);
  expect(all).not.toContain(LEAKED_KEY);
  expect(all).toContain('[redacted]');
  return { actors: announced.size, events, snapshots, systems: bySystem.size };
}

describe("the Stately inspector's receiver, on the bridge of inspectWithStately", () => {
  let stately: StatelyInspector | undefined;
  afterEach(() => {
    stately?.stop();
    stately = undefined;
  });

  it('gets an agent run whose inspector connected while the run was under way: every actor announced once, events after', async () => {
    stately = inspectWithStately({ port: 0, open: false });
    const url = await stately.ready;
    const oracle = xstateOracle();
    const held = gate();
    const agent = lookupAgent({
      tools: [lookup, held.tool],
      model: scriptedModel([
        { toolCalls: [{ name: 'lookup', arguments: { query: `books ${LEAKED_KEY}`, token: SECRET } }] },
        { toolCalls: [{ name: 'wait_for_inspector', arguments: {} }] },
        { text: 'There are 3 books.' },
      ]),
    });
    const inspect = stately.inspect;
    const run = agent.run(`How many books? (key ${LEAKED_KEY})`, {
      inspect: (event) => {
        oracle.observe(event);
        inspect.next?.(event);
      },
    });
    await held.arrived;
    const late = receiver(url);
    await until(() => late.length > 0, 'the announcements');
    const announcedOnConnect = late.filter((message) => message.type === '@xstate.actor').length;
    held.open();
    const result = await run.result;
    expect(result.text).toBe('There are 3 books.');
    await until(() => rootEnded(late), 'the end of the run');

    const counts = checkReceived(late, oracle);
    expect(announcedOnConnect).toBeGreaterThan(2);
    expect(counts.systems).toBe(1);
    console.log(`agent run: ${JSON.stringify(counts)} (${announcedOnConnect} actors announced on connecting)`);
  });

  it('gets a 30-round group chat with a nested chat (40+ actors), from the start and from a late connection after hundreds of messages', async () => {
    stately = inspectWithStately({ port: 0, open: false });
    const url = await stately.ready;
    const oracle = xstateOracle();
    const inspect = stately.inspect;
    const observe = (event: InspectionEvent) => {
      oracle.observe(event);
      inspect.next?.(event);
    };
    // A first actor, so that the receiver is told something as it connects: then it is known to be there from the start.
    createActor(createMachine({ id: 'probe' }), { inspect: observe }).start();
    const early = receiver(url);
    await until(() => early.length > 0, 'the receiver');
    const held = gate();
    const turns = (name: string, count: number) => Array.from({ length: count }, (_, turn) => `${name} says ${turn + 1}.`);
    const planner = talker(
      'planner',
      [{ toolCalls: [{ name: 'lookup', arguments: { query: 'books', token: SECRET } }] }, `Found them, ${LEAKED_KEY}.`, ...turns('planner', 12)],
      [lookup as AnyTool],
    );
    const member = (name: string) => talker(name, turns(name, 12)).agent;
    // Outer members look something up first (a tool runner each), with the secret in the arguments.
    const looker = (name: string) =>
      talker(name, [{ toolCalls: [{ name: 'lookup', arguments: { query: name, token: SECRET } }] }, ...turns(name, 12)], [lookup as AnyTool]).agent;
    const team = createGroupChat({
      name: 'research_team',
      description: 'Researches, checks and edits.',
      agents: [member('researcher'), member('critic'), member('editor'), member('fact_checker'), member('stylist')],
      speakerSelection: 'round_robin',
      maxRounds: 5,
    });
    const writerTurns: (string | { toolCalls: { name: string; arguments: object }[] })[] = turns('writer', 2);
    writerTurns.push({ toolCalls: [{ name: 'wait_for_inspector', arguments: {} }] }, ...turns('writer', 6));
    const writer = talker('writer', writerTurns, [held.tool as AnyTool]);
    const chat = createGroupChat({
      agents: [
        planner.agent,
        team,
        writer.agent,
        ...['analyst', 'reviewer', 'summarizer', 'archivist', 'translator', 'designer', 'publisher'].map(looker),
      ],
      speakerSelection: 'round_robin',
      maxRounds: 30,
    });
    const run = chat.run(`Count the books (key ${LEAKED_KEY}).`, { inspect: observe });
    await held.arrived;
    // While the chat waits, what it sent so far reaches the receiver: more than @statelyai/inspect's buffers hold (200).
    await until(() => early.length > 200, 'more than 200 messages');
    const late = receiver(url);
    await until(() => late.length > 0, 'the announcements');
    held.open();
    const result = await run.result;
    expect(result.messages.length).toBeGreaterThan(30);
    await until(() => rootEnded(early) && rootEnded(late), 'the end of the chat');

    const fromStart = checkReceived(early, oracle);
    const fromLate = checkReceived(late, oracle);
    expect(fromStart.actors).toBeGreaterThanOrEqual(40);
    expect(fromLate.actors).toBe(fromStart.actors);
    console.log(`30-round chat, connected from the start: ${JSON.stringify(fromStart)}`);
    console.log(`30-round chat, connected after ${early.length - late.length} messages: ${JSON.stringify(fromLate)}`);
  }, 60_000);
});

/** Whether the root actor's final snapshot has arrived. */
const rootEnded = (messages: readonly StatelyInspectionEvent[]) =>
  messages.some((message) => message.type === '@xstate.snapshot' && message.sessionId === message.rootId && message.snapshot.status !== 'active');
