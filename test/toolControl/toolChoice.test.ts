import { ConfigurationError } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { simpleTool } from './helpers.js';

const getRecord = simpleTool('get_record');
const updateRecord = simpleTool('update_record');
const search = simpleTool('search');

const sent = (model: ReturnType<typeof scriptedModel>) =>
  model.requests.map((request) => ({ tools: request.tools.map((tool) => tool.name), toolChoice: request.toolChoice }));

const twoIterations = () => scriptedModel([{ toolCalls: [{ name: 'get_record' }] }, { toolCalls: [{ name: 'update_record' }] }, { text: 'done' }]);

describe('toolChoice', () => {
  it('defaults to auto with every live tool offered', async () => {
    const model = scriptedModel([{ text: 'hi' }]);
    await createAgent({ name: 'a', model, tools: [getRecord, updateRecord] }).run('go').result;
    expect(sent(model)).toEqual([{ tools: ['get_record', 'update_record'], toolChoice: 'auto' }]);
  });

  it('a forced first call names the tool, then resets to auto after the first iteration that ran tools', async () => {
    const model = twoIterations();
    const agent = createAgent({ name: 'a', model, tools: [getRecord, updateRecord] });
    await agent.run('Update REC-42', { toolChoice: { mode: 'required', requiredFunctionName: 'get_record' } }).result;
    expect(sent(model)).toEqual([
      { tools: ['get_record', 'update_record'], toolChoice: { type: 'tool', name: 'get_record' } },
      { tools: ['get_record', 'update_record'], toolChoice: 'auto' },
      { tools: ['get_record', 'update_record'], toolChoice: 'auto' },
    ]);
  });

  it("'required' becomes auto after tools ran; the agent's choice applies again on the next run", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'get_record' }] }, { text: 'one' }, { text: 'two' }]);
    const agent = createAgent({ name: 'a', model, tools: [getRecord], toolChoice: 'required' });
    await agent.run('first').result;
    await agent.run('second', { toolChoice: 'auto' }).result;
    expect(sent(model).map((request) => request.toolChoice)).toEqual(['required', 'auto', 'auto']);
  });

  it('a per-run choice overrides the agent’s for that run only', async () => {
    const model = scriptedModel([{ text: 'one' }, { text: 'two' }]);
    const agent = createAgent({ name: 'a', model, tools: [getRecord], toolChoice: 'required' });
    await agent.run('first', { toolChoice: 'none' }).result;
    await agent.run('second').result;
    expect(sent(model)).toEqual([
      { tools: [], toolChoice: 'none' },
      { tools: ['get_record'], toolChoice: 'required' },
    ]);
  });

  it("'none' offers no tool, so a call the model makes anyway is answered as unknown", async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'get_record' }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'a', model, tools: [getRecord], toolChoice: 'none' }).run('go').result;
    expect(result.toolCalls[0]).toMatchObject({ content: 'Unknown tool "get_record". No tools are available.', isError: true });
  });

  it('allowedTools narrows the offered tools, stays after a required choice resets, and bounds the batch', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'search' }, { name: 'update_record' }] }, { text: 'done' }]);
    const agent = createAgent({ name: 'a', model, tools: [getRecord, updateRecord, search] });
    const result = await agent.run('go', { toolChoice: { mode: 'required', allowedTools: ['search', 'get_record'] } }).result;
    expect(sent(model)).toEqual([
      { tools: ['get_record', 'search'], toolChoice: 'required' },
      { tools: ['get_record', 'search'], toolChoice: 'auto' },
    ]);
    expect(result.toolCalls.map((record) => record.content)).toEqual([
      'search ran',
      'Unknown tool "update_record". Available tools: get_record, search.',
    ]);
  });

  it('accepts the core form { type: "tool", name }', async () => {
    const model = twoIterations();
    await createAgent({ name: 'a', model, tools: [getRecord, updateRecord], toolChoice: { type: 'tool', name: 'get_record' } }).run('go').result;
    expect(sent(model).map((request) => request.toolChoice)).toEqual([{ type: 'tool', name: 'get_record' }, 'auto', 'auto']);
  });

  it('an agent without tools asks with tool choice none', async () => {
    const model = scriptedModel([{ text: 'hi' }]);
    await createAgent({ name: 'a', model, toolChoice: 'required' }).run('go').result;
    expect(sent(model)).toEqual([{ tools: [], toolChoice: 'none' }]);
  });

  it('rejects choices that name tools the agent does not have, with a message that says which', () => {
    const agent = createAgent({ name: 'a', model: scriptedModel([]), tools: [getRecord] });
    expect(() => agent.run('go', { toolChoice: { mode: 'required', requiredFunctionName: 'delete_all' } })).toThrow(
      'toolChoice.requiredFunctionName is "delete_all", which the run would not offer. Offered tools: get_record.',
    );
    expect(() => agent.run('go', { toolChoice: { mode: 'auto', allowedTools: ['get_record', 'nope'] } })).toThrow(
      'toolChoice.allowedTools names "nope", which the agent does not have. Its tools: get_record.',
    );
    expect(() => agent.run('go', { toolChoice: { mode: 'required', requiredFunctionName: 'get_record', allowedTools: ['search'] } })).toThrow(
      ConfigurationError,
    );
    expect(() => agent.run('go', { toolChoice: { mode: 'auto', requiredFunctionName: 'get_record' } })).toThrow(
      "toolChoice.requiredFunctionName needs mode 'required' (got 'auto').",
    );
    expect(() => agent.run('go', { toolChoice: 'sometimes' as never })).toThrow(ConfigurationError);
    expect(() => createAgent({ name: 'b', model: scriptedModel([]), toolChoice: { mode: 'maybe' } as never })).toThrow(
      "createAgent({ name: \"b\" }): toolChoice.mode must be 'auto', 'none' or 'required'; got \"maybe\".",
    );
  });

  it("refuses { mode: 'none', allowedTools }, which contradicts itself, on the agent and on a run", () => {
    const message =
      "toolChoice.allowedTools contradicts mode 'none', which offers no tools at all: " +
      "leave allowedTools out, or use { mode: 'auto', allowedTools } to offer only those tools.";
    const model = scriptedModel([]);
    const create = () => createAgent({ name: 'a', model, tools: [getRecord], toolChoice: { mode: 'none', allowedTools: ['get_record'] } });
    expect(create).toThrow(ConfigurationError);
    expect(create).toThrow(`createAgent({ name: "a" }): ${message}`);
    const agent = createAgent({ name: 'a', model, tools: [getRecord] });
    expect(() => agent.run('go', { toolChoice: { mode: 'none', allowedTools: [] } })).toThrow(message);
    expect(() => agent.run('go', { toolChoice: { mode: 'none' } }).abort()).not.toThrow();
  });

  it('a JavaScript caller passing a wrong shape gets a ConfigurationError naming the part, never a TypeError', () => {
    const agent = createAgent({ name: 'a', model: scriptedModel([]), tools: [getRecord] });
    const cases: [unknown, string][] = [
      [
        'sometimes',
        "toolChoice must be 'auto', 'none', 'required', { mode: 'required', requiredFunctionName }, { mode, allowedTools } or { type: 'tool', name }; got \"sometimes\".",
      ],
      [{ mode: 'auto', allowedTools: 'get_record' }, 'toolChoice.allowedTools must be a list of tool names; got "get_record".'],
      [{ type: 'tool' }, 'toolChoice.name must be the name of a tool (a non-empty string); got undefined.'],
      [{}, "toolChoice.mode must be 'auto', 'none' or 'required'; got undefined."],
    ];
    for (const [toolChoice, message] of cases) {
      expect(() => agent.run('go', { toolChoice: toolChoice as never })).toThrow(ConfigurationError);
      expect(() => agent.run('go', { toolChoice: toolChoice as never })).toThrow(message);
    }
  });
});
