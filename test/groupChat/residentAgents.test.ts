import { type ToolSource, createAgent, createGroupChat } from '@agentchart/actors';
import { type AnyTool, defineTool, rules } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { InspectionEvent } from 'xstate';
import { z } from 'zod';
import { abortInSecondTurn, agentActorCounter, approvalInSecondTurn, toolTurns } from './fixtures/residentScenarios.js';

/** What these chats did when every turn had its own agent actor (see `residentScenarios.ts`). */
const before = JSON.parse(readFileSync(new URL('./fixtures/residentScenarios.before.json', import.meta.url), 'utf8'));

describe('resident agents: one actor per agent for the chat run', () => {
  it('agents with tools speak twice each: the same events and result as with an actor per turn, one actor per agent', async () => {
    expect(await toolTurns()).toEqual(before.toolTurns);
    const counter = agentActorCounter();
    expect(await toolTurns(counter.inspect)).toEqual(before.toolTurnsInspected);
    expect(before.agentActorsPerTurnBefore).toBe(6);
    expect(counter.count).toBe(3);
  });

  it("the inspector sees every model call and tool batch of every turn as states of the agent's one actor", async () => {
    const states = new Map<string, string[]>();
    const inspect = (event: InspectionEvent) => {
      const actor = event.actorRef as { id?: string; logic?: { id?: string } };
      if (event.type !== '@xstate.snapshot' || actor.logic?.id !== 'agent') return;
      const id = String(actor.id);
      const value = (event.snapshot as { value?: unknown }).value;
      const seen = states.get(id) ?? [];
      if (typeof value === 'string' && seen.at(-1) !== value) seen.push(value);
      states.set(id, seen);
    };
    await toolTurns(inspect);
    expect([...states.keys()].sort()).toEqual(['agent:critic', 'agent:planner', 'agent:writer']);
    // Each turn: a model call (thinking), its batch (acting), the answer (thinking), the end of the turn (idle).
    const turn = ['thinking', 'acting', 'thinking', 'idle'];
    expect(states.get('agent:planner')).toEqual(['idle', ...turn, ...turn]);
    expect(states.get('agent:writer')).toEqual(['idle', ...turn, ...turn]);
  });

  it('a snapshot taken while an agent waits for approval in its second turn is the same, and resumes the same', async () => {
    expect(await approvalInSecondTurn()).toEqual(before.approvalInSecondTurn);
    expect(await approvalInSecondTurn(() => {})).toEqual(before.approvalInSecondTurnInspected);
  });

  it('an abort during a resident agent’s second turn records the partial turn as before', async () => {
    const aborted = (await abortInSecondTurn()) as { result: { reason: string; turns: { speaker: string }[] } };
    expect(aborted).toEqual(before.abortInSecondTurn);
    expect(aborted.result.reason).toBe('aborted');
    expect(aborted.result.turns.at(-1)).toMatchObject({ speaker: 'writer', partial: true });
  });
});

describe('resident agents in a resumed chat', () => {
  it('the agent resumed at its approval wait stays resident and takes its later turns', async () => {
    const makeChat = (inspect?: (event: InspectionEvent) => void) => {
      const remove = defineTool({
        name: 'remove',
        description: 'Removes a file.',
        parameters: z.object({ path: z.string() }),
        approval: 'always',
        execute: ({ path }) => `removed ${path}`,
      });
      const cleaner = createAgent({
        name: 'cleaner',
        model: scriptedModel((request) =>
          request.messages.at(-1)?.role === 'tool' ? { text: 'removed it' } : { toolCalls: [{ name: 'remove', arguments: { path: 'a.txt' } }] },
        ),
        tools: [remove],
      });
      const planner = createAgent({ name: 'planner', model: scriptedModel(() => ({ text: 'next file' })) });
      return createGroupChat({ agents: [cleaner, planner], speakerSelection: 'round_robin', maxRounds: 5, ...(inspect ? { inspect } : {}) });
    };
    const first = makeChat().run('Clean up.');
    const snapshot = await new Promise<unknown>((resolve) => {
      first.events$.subscribe((event) => {
        if (event.type === 'agent.event' && event.event.type === 'approval.requested') queueMicrotask(() => resolve(first.snapshot()));
      });
    });
    first.abort();
    await first.result;
    const counter = agentActorCounter();
    const resumed = makeChat(counter.inspect).resume(JSON.parse(JSON.stringify(snapshot)));
    resumed.events$.subscribe((event) => {
      if (event.type === 'agent.event' && event.event.type === 'approval.requested') {
        const { id } = event.event;
        queueMicrotask(() => resumed.approve(id));
      }
    });
    const waiting = resumed.waiting();
    if (waiting?.kind !== 'approval') throw new Error('expected a wait for approval');
    resumed.approve(waiting.requests[0]?.id ?? '');
    const result = await resumed.result;
    expect(result.turns.map((turn) => turn.speaker)).toEqual(['cleaner', 'planner', 'cleaner', 'planner', 'cleaner']);
    expect(result.messages.filter((message) => message.role === 'tool').map((message) => message.content)).toEqual([
      'removed a.txt',
      'removed a.txt',
      'removed a.txt',
    ]);
    // The cleaner's actor restored from the snapshot took its two later turns; the planner's was spawned once.
    expect(counter.count).toBe(2);
  });
});

/** An agent whose first reply calls `grow`, which sets `source`'s list to `list`; its later replies are `texts`. */
function changerAdding(source: ReturnType<typeof memorySource>, list: AnyTool[], texts: string[]) {
  return createAgent({
    name: 'changer',
    model: scriptedModel([{ toolCalls: [{ name: 'grow', arguments: {} }] }, ...texts.map((text) => ({ text }))]),
    tools: [
      defineTool({
        name: 'grow',
        description: 'Adds beta to the source.',
        parameters: z.object({}),
        execute: async () => {
          await source.set(list);
          return 'grown';
        },
      }),
    ],
  });
}

describe('resident agents and tool sources', () => {
  it("a list change between an agent's turns reaches its next turn; its actor stays while its machine does", async () => {
    const alpha = tool('alpha');
    const source = memorySource('mem', [alpha]);
    const model = scriptedModel(() => ({ text: 'listed' }));
    const grower = createAgent({ name: 'grower', model, toolSources: [source] });
    const changer = changerAdding(source, [alpha, tool('beta')], ['grown', 'again']);
    const counter = agentActorCounter();
    const chat = createGroupChat({ agents: [grower, changer], speakerSelection: 'round_robin', maxRounds: 4, inspect: counter.inspect });
    const result = await chat.run('Grow.').result;
    expect(result.reason).toBe('max-rounds');
    expect(model.requests.map((request) => request.tools.map((spec) => spec.name))).toEqual([['alpha'], ['alpha', 'beta']]);
    expect(counter.count).toBe(2);
    await chat.close();
  });

  it("a list change that changes an agent's rules gives its next turn a new actor with the new rules", async () => {
    const alpha = tool('alpha');
    const source = memorySource('mem', [alpha]);
    const model = scriptedModel((request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: 'used it' } : { toolCalls: [{ name: 'alpha', arguments: {} }] },
    );
    const keeper = createAgent({ name: 'keeper', model, toolSources: [source], toolRules: [rules.maxCount('alpha', 1)] });
    const changer = changerAdding(source, [alpha, tool('beta')], ['grown']);
    const counter = agentActorCounter();
    const chat = createGroupChat({ agents: [keeper, changer], speakerSelection: 'round_robin', maxRounds: 3, inspect: counter.inspect });
    const result = await chat.run('Go.').result;
    expect(result.reason).toBe('max-rounds');
    expect(model.requests.map((request) => request.tools.map((spec) => spec.name))).toEqual([['alpha'], [], ['alpha', 'beta'], ['beta']]);
    // keeper, changer, then keeper again with the rules compiled for the new list: a new actor.
    expect(counter.count).toBe(3);
    await chat.close();
  });
});

describe('resident agents and unusable tool lists', () => {
  it("a list its rules cannot take fails the resident agent's next turn before any model call", async () => {
    const source = memorySource('mem', [tool('vault'), tool('alpha')]);
    const keeperModel = scriptedModel(() => ({ text: 'keeper here' }));
    const keeper = createAgent({ name: 'keeper', model: keeperModel, toolSources: [source], toolRules: [rules.maxCount('vault', 1)] });
    const locker = createAgent({
      name: 'locker',
      model: scriptedModel([{ toolCalls: [{ name: 'lock', arguments: {} }] }, { text: 'locked it' }]),
      tools: [
        defineTool({
          name: 'lock',
          description: 'Removes vault.',
          parameters: z.object({}),
          execute: async () => {
            await source.set([]);
            return 'locked';
          },
        }),
      ],
    });
    const counter = agentActorCounter();
    const chat = createGroupChat({ agents: [keeper, locker], speakerSelection: 'round_robin', maxRounds: 3, inspect: counter.inspect });
    const run = chat.run('Go.');
    const finished: string[] = [];
    run.events$.subscribe((event) => {
      if (event.type === 'agent.event' && event.event.type === 'run.finished') finished.push(`${event.speaker}:${event.event.reason}`);
    });
    const result = await run.result;
    expect(result.reason).toBe('error');
    expect(result.turns.map((turn) => turn.speaker)).toEqual(['keeper', 'locker', 'keeper']);
    expect(result.error).toMatchObject({ code: 'TOOL_RULES_UNKNOWN_TOOL' });
    expect(keeperModel.requests).toHaveLength(1);
    expect(finished).toEqual(['keeper:completed', 'locker:completed', 'keeper:error']);
    expect(counter.count).toBe(2); // the keeper's second turn is a command to its first actor
    await chat.close();
  });
});

function tool(name: string): AnyTool {
  return defineTool({ name, description: `The ${name} tool.`, parameters: z.object({}), execute: () => `${name} done` });
}

/** A tool source in memory: `set` changes its list and tells the listeners, as a server's notification would. */
function memorySource(name: string, initial: AnyTool[]) {
  let tools = initial;
  const listeners = new Set<() => void | Promise<void>>();
  const source: ToolSource & { set(next: AnyTool[]): Promise<unknown> } = {
    name,
    loadTools: async () => tools,
    onToolsChanged: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: async () => {},
    set: (next) => {
      tools = next;
      return Promise.all([...listeners].map((listener) => listener()));
    },
  };
  return source;
}
