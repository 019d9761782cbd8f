import { createAgent, createGroupChat } from '@agentchart/actors';
import { ConfigurationError, ToolRulesError, defineTool, rules } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

const model = () => scriptedModel([{ text: 'ok' }]);
const agentsNamed = (...names: string[]) => names.map((name) => createAgent({ name, model: model() }));

describe('what chats and agents of the same shape share', () => {
  it('chats with the same participants and transitions share one compiled speaker statechart', () => {
    const options = { speakerSelection: 'round_robin', maxRounds: 2, transitions: { allowed: { a: ['b'], b: ['a'] } } } as const;
    const first = createGroupChat({ agents: agentsNamed('a', 'b'), ...options });
    const second = createGroupChat({ agents: agentsNamed('a', 'b'), ...options });
    expect(second.transitions).toBe(first.transitions);
    const other = createGroupChat({ agents: agentsNamed('a', 'b'), ...options, transitions: { allowed: { a: ['b'], b: ['b'] } } });
    expect(other.transitions).not.toBe(first.transitions);
    expect(createGroupChat({ agents: agentsNamed('a', 'b'), ...options, allowRepeatSpeaker: false }).transitions).not.toBe(first.transitions);
  });

  it('a shared graph still rejects settings that JSON would write like valid ones', () => {
    createGroupChat({ agents: agentsNamed('a', 'b'), speakerSelection: 'round_robin', maxRounds: 2, transitions: { allowed: {} } });
    // `{ a: undefined }` is written `{}` as JSON: it must still be checked, not served the graph of `{}`.
    expect(() =>
      createGroupChat({
        agents: agentsNamed('a', 'b'),
        speakerSelection: 'round_robin',
        maxRounds: 2,
        transitions: { allowed: { a: undefined as unknown as string[] } },
      }),
    ).toThrow(ConfigurationError);
  });

  it('agents made from one tool list share its map, and a list changed since gets its own', async () => {
    const tool = (name: string) => defineTool({ name, description: name, parameters: z.object({}), execute: () => name });
    const list = [tool('a'), tool('b')];
    const first = createAgent({ name: 'x', model: model(), tools: list });
    list.push(tool('c'));
    const second = createAgent({ name: 'y', model: model(), tools: list });
    expect(first.tools.map((t) => t.name)).toEqual(['a', 'b']);
    expect(second.tools.map((t) => t.name)).toEqual(['a', 'b', 'c']);
    const tools = scriptedModel([{ text: 'done' }]);
    const run = createAgent({ name: 'z', model: tools, tools: list }).run('go');
    await run.result;
    expect(tools.requests[0]?.tools.map((spec) => spec.name)).toEqual(['a', 'b', 'c']);
  });

  it('an agent reads the same name, tools and rules every time', () => {
    const agent = createAgent({ name: 'solo', model: model() });
    expect(agent.name).toBe('solo');
    expect(agent.tools).toBe(agent.tools);
    expect(agent.tools).toEqual([]);
    expect(agent.toolRules).toBeUndefined();
  });
});

describe('compiled tool rules', () => {
  const tool = (name: string) => defineTool({ name, description: name, parameters: z.object({}), execute: () => name });
  it('agents with the same rules for the same tools share one compiled rule set; other tools get their own', () => {
    const tools = [tool('search'), tool('read')];
    const make = (list = tools) =>
      createAgent({ name: 'r', model: model(), tools: list, toolRules: [rules.init('search'), rules.child('search', ['read'])] });
    expect(make().toolRules).toBe(make().toolRules);
    expect(make([...tools, tool('write')]).toolRules).not.toBe(make().toolRules);
    expect(make([...tools, tool('write')]).toolRules?.toolNames).toEqual(['search', 'read', 'write']);
  });

  it('a rule set that does not compile throws every time', () => {
    const make = () => createAgent({ name: 'r', model: model(), tools: [tool('a')], toolRules: [rules.init('missing')] });
    expect(make).toThrow(ToolRulesError);
    expect(make).toThrow(ToolRulesError);
  });
});
