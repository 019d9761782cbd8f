import { createAgent, createGroupChat, reliableTool } from '@agentchart/actors';
import { type ChatModel, type ModelEvent, defineTool, rules } from '@agentchart/core';
import { from } from 'rxjs';
import { genAiTracing } from '@agentchart/otel';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { callWith, priceTool, verdict } from '../reliableTool/fixtures.js';
import { memoryTracing, spanNamed, spanTree } from './spanTree.js';

const tool = (name: string, approval: 'never' | 'always' = 'never') =>
  defineTool({ name, description: `The ${name} tool.`, parameters: z.object({}), approval, execute: () => `${name} done` });

const NAMES_ONLY = ['gen_ai.agent.name', 'gen_ai.tool.call.id', 'agentchart.stop_reason', 'error.type'];

describe('genAiTracing span events and nesting', () => {
  it('rule refusals are span events of the run, approvals span events of the tool call', async () => {
    const { tracer, spans } = memoryTracing();
    const model = scriptedModel([{ toolCalls: [{ id: 'r1', name: 'read' }] }, { toolCalls: [{ id: 's1', name: 'search' }] }, { text: 'ok' }]);
    const agent = createAgent({ name: 'a', model, tools: [tool('search', 'always'), tool('read')], toolRules: [rules.init('search')] });
    const run = agent.run('Go');
    genAiTracing({ tracer }).traceRun(run);
    run.events$.subscribe((event) => {
      if (event.type === 'approval.requested') queueMicrotask(() => run.approve(event.id));
    });
    await run.result;

    const agentSpan = spanNamed(spans(), 'invoke_agent a');
    const refused = agentSpan.events.find((event) => event.name === 'agentchart.tool.refused');
    expect(refused?.attributes).toEqual({
      'gen_ai.tool.name': 'read',
      'gen_ai.tool.call.id': 'r1',
      'agentchart.rule': 'init',
      'agentchart.reason': 'the first tool call must be one of: search',
      'agentchart.allowed_tools': ['search'],
    });
    const search = spanNamed(spans(), 'execute_tool search');
    expect(search.events.map((event) => [event.name, event.attributes?.['agentchart.approved']])).toEqual([
      ['agentchart.approval.requested', undefined],
      ['agentchart.approval.decided', true],
    ]);
    expect(spans().some((span) => span.name === 'execute_tool read')).toBe(false);
  });

  it('tool progress is a span event of the tool call (progress and total, not the message)', async () => {
    const { tracer, spans } = memoryTracing();
    const slow = defineTool({
      name: 'slow',
      description: 'Takes two steps.',
      parameters: z.object({}),
      execute: (_args, ctx) => {
        ctx.reportProgress({ progress: 1, total: 2, message: 'half way' });
        ctx.reportProgress({ progress: 2, total: 2 });
        return 'done';
      },
    });
    const run = createAgent({ name: 'a', model: scriptedModel([{ toolCalls: [{ id: 'p1', name: 'slow' }] }, { text: 'ok' }]), tools: [slow] }).run(
      'Go',
    );
    genAiTracing({ tracer }).traceRun(run);
    await run.result;
    expect(spanNamed(spans(), 'execute_tool slow').events.map((event) => [event.name, event.attributes])).toEqual([
      ['agentchart.tool.progress', { 'gen_ai.tool.call.id': 'p1', 'agentchart.progress': 1, 'agentchart.progress.total': 2 }],
      ['agentchart.tool.progress', { 'gen_ai.tool.call.id': 'p1', 'agentchart.progress': 2, 'agentchart.progress.total': 2 }],
    ]);
  });

  it('a reply the provider had to ask again for is a span event of the run', async () => {
    const { tracer, spans } = memoryTracing();
    const events: ModelEvent[] = [
      { type: 'malformed-reply', reason: 'forced-call-missing', message: 'no call' },
      { type: 'text-delta', text: 'ok' },
      { type: 'finish', reason: 'stop' },
    ];
    const model: ChatModel = { provider: 'test', modelName: 'm', stream: () => from(events) };
    const run = createAgent({ name: 'a', model }).run('Go');
    genAiTracing({ tracer }).traceRun(run);
    await run.result;
    const malformed = spanNamed(spans(), 'invoke_agent a').events.filter((event) => event.name === 'agentchart.model.malformed');
    expect(malformed.map((event) => event.attributes)).toEqual([{ 'agentchart.step': 1, 'agentchart.reason': 'forced-call-missing' }]);
  });

  it('a handoff is a span event of the workflow; a nested chat is an invoke_workflow span under the outer one', async () => {
    const { tracer, spans } = memoryTracing();
    const talker = (name: string, turns: Parameters<typeof scriptedModel>[0]) => createAgent({ name, model: scriptedModel(turns) });
    const team = createGroupChat({
      name: 'research_team',
      agents: [talker('researcher', [{ text: 'Three hearts.' }]), talker('critic', [{ text: 'Verified.' }])],
      speakerSelection: 'round_robin',
      maxRounds: 2,
    });
    const planner = talker('planner', [{ text: 'Ask the team.', toolCalls: [{ id: 'h1', name: 'transfer_to_research_team' }] }, { text: 'Done.' }]);
    const chat = createGroupChat({
      agents: [{ agent: planner, handoffs: [{ to: 'research_team' }] }, team],
      speakerSelection: 'round_robin',
      maxRounds: 3,
    });
    const run = chat.run('Octopuses?');
    genAiTracing({ tracer }).traceChat(run);
    await run.result;

    expect(spanTree(spans(), NAMES_ONLY)).toBe(
      [
        'invoke_workflow group_chat [INTERNAL] agent.name="group_chat" agentchart.stop_reason="max-rounds" events=agentchart.speaker.selected,agentchart.handoff,agentchart.speaker.selected,agentchart.speaker.selected',
        '  invoke_agent planner [INTERNAL] agent.name="planner" agentchart.stop_reason="terminal-tool"',
        '    chat scripted [CLIENT]',
        '    execute_tool transfer_to_research_team [INTERNAL] tool.call.id="h1"',
        '  invoke_workflow research_team [INTERNAL] agent.name="research_team" agentchart.stop_reason="max-rounds" events=agentchart.speaker.selected,agentchart.speaker.selected',
        '    invoke_agent researcher [INTERNAL] agent.name="researcher" agentchart.stop_reason="completed"',
        '      chat scripted [CLIENT]',
        '    invoke_agent critic [INTERNAL] agent.name="critic" agentchart.stop_reason="completed"',
        '      chat scripted [CLIENT]',
        '  invoke_agent planner [INTERNAL] agent.name="planner" agentchart.stop_reason="completed"',
        '    chat scripted [CLIENT]',
      ].join('\n'),
    );
    const workflow = spanNamed(spans(), 'invoke_workflow group_chat');
    expect(workflow.events.find((event) => event.name === 'agentchart.handoff')?.attributes).toEqual({
      'agentchart.from': 'planner',
      'agentchart.to': 'research_team',
      'agentchart.via': 'tool',
    });
  });

  it("a reliable tool's runner and validator calls go under the execute_tool span of the agent that called it", async () => {
    const { tracer, spans } = memoryTracing();
    const { tool: lookup } = priceTool();
    const prices = reliableTool({
      name: 'reliable_price',
      tool: lookup,
      runnerModel: scriptedModel([callWith('BAD'), callWith('ACME')], { name: 'runner-model' }),
      validatorModel: scriptedModel([{ ...verdict(true, 'ok'), usage: { inputTokens: 7, outputTokens: 3 } }], { name: 'validator-model' }),
    });
    const agent = createAgent({
      name: 'trader',
      model: scriptedModel([{ toolCalls: [{ id: 'p1', name: 'reliable_price', arguments: { task: 'Price of ACME' } }] }, { text: '42 USD.' }]),
      tools: [prices],
    });
    const tracing = genAiTracing({ tracer });
    const stop = tracing.traceReliableTool(prices);
    const run = agent.run('What does ACME cost?');
    tracing.traceRun(run);
    await run.result;
    stop();

    expect(spanTree(spans(), ['gen_ai.tool.call.id', 'agentchart.reliable_tool.role', 'gen_ai.usage.input_tokens', 'error.type'])).toBe(
      [
        'invoke_agent trader [INTERNAL] usage.input_tokens=0',
        '  chat scripted [CLIENT]',
        '  execute_tool reliable_price [INTERNAL] tool.call.id="p1"',
        '    invoke_agent reliable_price [INTERNAL] usage.input_tokens=7 events=agentchart.reliable_tool.attempt,agentchart.reliable_tool.attempt,agentchart.reliable_tool.verdict',
        '      chat runner-model [CLIENT] agentchart.reliable_tool.role="runner" usage.input_tokens=0',
        '      execute_tool lookup_price [INTERNAL] ERROR tool.call.id="call_0_0" error.type="Error"',
        '      chat runner-model [CLIENT] agentchart.reliable_tool.role="runner" usage.input_tokens=0',
        '      execute_tool lookup_price [INTERNAL] tool.call.id="call_1_0"',
        '      chat validator-model [CLIENT] agentchart.reliable_tool.role="validator" usage.input_tokens=7',
        '  chat scripted [CLIENT]',
      ].join('\n'),
    );
  });
});

describe('genAiTracing of a resumed run', () => {
  it('starts the resumed run’s invoke_agent span with its first event, and the approved call’s execute_tool span with the decision', async () => {
    const { tracer, spans } = memoryTracing();
    const model = scriptedModel((request) =>
      request.messages.at(-1)?.role === 'tool' ? { text: 'Deleted.' } : { toolCalls: [{ id: 'd1', name: 'delete_file' }] },
    );
    const agent = createAgent({ name: 'cleaner', model, tools: [tool('delete_file', 'always')] });
    const first = agent.run('Delete it.');
    const waiting = new Promise<void>((resolve) => first.events$.subscribe((event) => event.type === 'approval.requested' && resolve()));
    await waiting;
    const snapshot = JSON.parse(JSON.stringify(first.persist()));
    first.abort();
    await first.result;

    const resumed = agent.resume(snapshot);
    genAiTracing({ tracer }).traceRun(resumed);
    resumed.approve('d1');
    const result = await resumed.result;
    expect(result.stopReason).toBe('completed');
    expect(spanTree(spans(), ['agentchart.resumed', 'gen_ai.tool.call.id', 'agentchart.stop_reason'])).toBe(
      [
        'invoke_agent cleaner [INTERNAL] agentchart.resumed=true agentchart.stop_reason="completed"',
        '  execute_tool delete_file [INTERNAL] tool.call.id="d1" events=agentchart.approval.decided',
        '  chat scripted [CLIENT]',
      ].join('\n'),
    );
  });
});

describe('genAiTracing: budgets and reliable tools called from code', () => {
  it('a chat ended by its token budget says so on its span, and so does the turn that spent it', async () => {
    const { tracer, spans } = memoryTracing();
    const spender = (name: string) =>
      createAgent({
        name,
        model: scriptedModel(() => ({ toolCalls: [{ name: 'search' }], usage: { inputTokens: 100, outputTokens: 0 } })),
        tools: [tool('search')],
      });
    const chat = createGroupChat({ agents: [spender('a'), spender('b')], speakerSelection: 'round_robin', maxRounds: 4, maxTokens: 250 });
    const run = chat.run('Go.');
    genAiTracing({ tracer }).traceChat(run);
    await run.result;
    expect(
      spanTree(spans(), ['agentchart.stop_reason', 'gen_ai.usage.input_tokens'])
        .split('\n')
        .filter((line) => !line.includes('[CLIENT]') && !line.includes('execute_tool')),
    ).toEqual([
      'invoke_workflow group_chat [INTERNAL] agentchart.stop_reason="token-budget" usage.input_tokens=300 events=agentchart.speaker.selected',
      '  invoke_agent a [INTERNAL] agentchart.stop_reason="token-budget" usage.input_tokens=300',
    ]);
  });

  it('a reliable tool run from code is a root invoke_agent span', async () => {
    const { tracer, spans } = memoryTracing();
    const { tool: lookup } = priceTool();
    const prices = reliableTool({
      name: 'reliable_price',
      tool: lookup,
      runnerModel: scriptedModel([callWith('ACME')]),
      validatorModel: scriptedModel([verdict(true, 'ok')]),
    });
    const stop = genAiTracing({ tracer }).traceReliableTool(prices);
    await prices.run({ task: 'Price of ACME' });
    stop();
    expect(spanTree(spans(), ['agentchart.reliable_tool.role'])).toBe(
      [
        'invoke_agent reliable_price [INTERNAL] events=agentchart.reliable_tool.attempt,agentchart.reliable_tool.verdict',
        '  chat scripted [CLIENT] agentchart.reliable_tool.role="runner"',
        '  execute_tool lookup_price [INTERNAL]',
        '  chat scripted [CLIENT] agentchart.reliable_tool.role="validator"',
      ].join('\n'),
    );
  });
});
