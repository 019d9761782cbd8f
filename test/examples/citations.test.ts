import { citationsAgent, citationsScript } from '@agentchart/examples';
import { scriptedModel } from '@agentchart/providers';
import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';

const CONTEXT =
  'The Tower of Hercules is a Roman lighthouse in A Coruña, Spain. Built in the 1st century, it is the oldest lighthouse still in use. It was declared a World Heritage Site in 2009.';

describe('validated citations example', () => {
  it('refuses an answer without context and a second retrieval, keeps only exactly quoted facts and clears the context', async () => {
    const model = scriptedModel(citationsScript);
    const run = citationsAgent(model).run('Which is the oldest lighthouse still in use?');
    const events = await firstValueFrom(run.events$.pipe(toArray()));
    const result = await run.result;

    expect(result.toolCalls.map(({ call, content, isError }) => ({ tool: call.name, content, isError }))).toEqual([
      { tool: 'AnswerQuestion', content: 'Please retrieve the context with the QueryDatabase tool first.', isError: true },
      {
        tool: 'QueryDatabase',
        content: `Context retrieved: ${CONTEXT}\n\nPlease proceed with the AnswerQuestion tool.`,
        isError: false,
      },
      { tool: 'QueryDatabase', content: 'Context already retrieved. Please proceed with the AnswerQuestion tool.', isError: true },
      {
        tool: 'AnswerQuestion',
        content: 'Success. The question has been answered with 2 cited fact(s). Dropped because no quote is in the context: "It is 55 metres tall.".',
        isError: false,
      },
    ]);
    expect(result.toolCalls[3]?.value).toEqual({
      answer: 'The Tower of Hercules in A Coruña, built in the 1st century, is the oldest lighthouse still in use.',
      sources: [
        { fact: 'The Tower of Hercules is the oldest lighthouse still in use.', substring_quote: ['it is the oldest lighthouse still in use'] },
        { fact: 'It was built in the 1st century.', substring_quote: ['Built in the 1st century'] },
      ],
      dropped: ['It is 55 metres tall.'],
    });
    expect(result.state).toEqual({});
    expect(result.stopReason).toBe('completed');

    const stateEvents = events.flatMap((event) =>
      event.type === 'state.changed' ? [{ key: event.key, deleted: event.deleted, by: event.toolName }] : [],
    );
    expect(stateEvents).toEqual([
      { key: 'context', deleted: false, by: 'QueryDatabase' },
      { key: 'context', deleted: true, by: 'AnswerQuestion' },
    ]);
    // the model saw every refusal, so it could correct itself
    expect(model.requests[1]?.messages.at(-1)).toEqual({
      role: 'tool',
      toolCallId: 'call_0_0',
      toolName: 'AnswerQuestion',
      content: 'Please retrieve the context with the QueryDatabase tool first.',
      isError: true,
    });
  });

  it('refuses an answer none of whose quotes is in the context, and keeps the context for the retry', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'QueryDatabase', arguments: { question: 'When was the Pharos of Alexandria built?' } }] },
      {
        toolCalls: [
          { name: 'AnswerQuestion', arguments: { answer: 'In 280 BC.', sources: [{ fact: 'Built in 280 BC.', substring_quote: ['280 BC'] }] } },
        ],
      },
      { text: 'I could not cite it.' },
    ]);
    const result = await citationsAgent(model).run('When was the Pharos of Alexandria built?').result;
    expect(result.toolCalls[1]).toMatchObject({
      content: 'None of your quotes appears in the retrieved context. Copy the supporting sentences exactly and call AnswerQuestion again.',
      isError: true,
    });
    expect(result.state).toEqual({
      context: 'The Pharos of Alexandria was built in the 3rd century BC. It was damaged by earthquakes and had fallen into ruin by 1480.',
    });
  });
});
