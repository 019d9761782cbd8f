import { type Agent, createAgent } from '@agentchart/actors';
import type { ChatModel } from '@agentchart/core';
import type { ScriptedTurn } from '@agentchart/providers';
import { CitationState, LIGHTHOUSE_PASSAGES, answerQuestion, keywordSearch, queryDatabaseTool } from './citationTools.js';

/**
 * An agent that answers questions with validated citations.
 *
 * @example
 * const { text, toolCalls } = await citationsAgent(model).run('What is the oldest lighthouse in use?').result;
 */
export function citationsAgent(model: ChatModel, passages: readonly string[] = LIGHTHOUSE_PASSAGES): Agent {
  return createAgent({
    name: 'researcher',
    model,
    instructions:
      'Answer questions only from retrieved context. First call QueryDatabase, then AnswerQuestion with facts ' +
      'backed by exact quotes from the context.',
    tools: [queryDatabaseTool(keywordSearch(passages)), answerQuestion],
    stateSchema: CitationState,
  });
}

/** A scripted conversation that exercises every rule of the example, including the model's slips. */
export const citationsScript: ScriptedTurn[] = [
  // answers before retrieving: refused
  {
    toolCalls: [
      { name: 'AnswerQuestion', arguments: { answer: 'The Tower of Hercules.', sources: [{ fact: 'It is old.', substring_quote: ['oldest'] }] } },
    ],
  },
  {
    text: 'I will retrieve the context first.',
    toolCalls: [{ name: 'QueryDatabase', arguments: { question: 'Which is the oldest lighthouse still in use?' } }],
  },
  // retrieves twice: refused
  { toolCalls: [{ name: 'QueryDatabase', arguments: { question: 'oldest lighthouse in use' } }] },
  {
    toolCalls: [
      {
        name: 'AnswerQuestion',
        arguments: {
          answer: 'The Tower of Hercules in A Coruña, built in the 1st century, is the oldest lighthouse still in use.',
          sources: [
            { fact: 'The Tower of Hercules is the oldest lighthouse still in use.', substring_quote: ['it is the oldest lighthouse still in use'] },
            { fact: 'It was built in the 1st century.', substring_quote: ['Built in the 1st century'] },
            { fact: 'It is 55 metres tall.', substring_quote: ['The tower is 55 metres tall'] },
          ],
        },
      },
    ],
  },
  { text: 'The Tower of Hercules in A Coruña, built in the 1st century, is the oldest lighthouse still in use.' },
];
