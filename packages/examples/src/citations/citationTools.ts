/**
 * Answering questions with validated citations (Instructor's example, as
 * Agency Swarm splits it into two tools over shared state):
 * - QueryDatabase stores the retrieved context in shared state and refuses a
 *   second retrieval before the question is answered;
 * - AnswerQuestion refuses without a context, keeps only the facts whose quotes
 *   are exact substrings of the context, and clears the context.
 */
import { ToolError, defineTool, toolResult, typedState } from '@agentchart/core';
import { z } from 'zod';

/** The shared state both tools use. */
export const CitationState = z.object({ context: z.string().optional() });

/** A text store searched by keyword, standing in for a vector database. */
export type TextSearch = (question: string) => string | undefined;

const Fact = z.object({
  fact: z.string().min(1).describe('One statement that answers part of the question.'),
  substring_quote: z
    .array(z.string().min(1))
    .min(1)
    .describe('Exact quotes from the retrieved context that support the fact, copied character for character.'),
});
export type Fact = z.infer<typeof Fact>;

/** What AnswerQuestion hands the program: the answer and the facts that survived validation. */
export type ValidatedAnswer = {
  answer: string;
  sources: Fact[];
  /** Facts dropped because none of their quotes is in the context. */
  dropped: string[];
};

/** The QueryDatabase tool over a search function. */
export function queryDatabaseTool(search: TextSearch) {
  return defineTool({
    name: 'QueryDatabase',
    description: 'Use this tool to query a vector database to retrieve the relevant context for the question.',
    parameters: z.object({ question: z.string().min(1).describe('The question to be answered') }),
    execute: ({ question }, ctx) => {
      const state = typedState(ctx.state, CitationState);
      if (state.get('context') !== undefined) {
        throw new ToolError('Context already retrieved. Please proceed with the AnswerQuestion tool.');
      }
      const context = search(question);
      if (context === undefined) throw new ToolError('No context found. Please propose to the user to change the topic.');
      state.set('context', context);
      return `Context retrieved: ${context}\n\nPlease proceed with the AnswerQuestion tool.`;
    },
  });
}

/** The AnswerQuestion tool: its validators read the context from shared state. */
export const answerQuestion = defineTool({
  name: 'AnswerQuestion',
  description: 'Answers the question with facts, each backed by exact quotes from the retrieved context.',
  parameters: (ctx) =>
    z
      .object({
        answer: z.string().min(1).describe('The answer to the question, based on context.'),
        sources: z.array(Fact).min(1).describe('The sources of the answer'),
      })
      .transform(({ answer, sources }): ValidatedAnswer => {
        const context = typedState(ctx.state, CitationState).get('context');
        if (context === undefined) throw new ToolError('Please retrieve the context with the QueryDatabase tool first.');
        const kept: Fact[] = [];
        const dropped: string[] = [];
        for (const source of sources) {
          const quotes = source.substring_quote.filter((quote) => context.includes(quote));
          if (quotes.length > 0) kept.push({ fact: source.fact, substring_quote: quotes });
          else dropped.push(source.fact);
        }
        if (kept.length === 0) {
          throw new ToolError(
            'None of your quotes appears in the retrieved context. Copy the supporting sentences exactly and call AnswerQuestion again.',
          );
        }
        return { answer, sources: kept, dropped };
      }),
  execute: (validated, ctx) => {
    typedState(ctx.state, CitationState).delete('context');
    const droppedNote =
      validated.dropped.length > 0
        ? ` Dropped because no quote is in the context: ${validated.dropped.map((fact) => JSON.stringify(fact)).join(', ')}.`
        : '';
    return toolResult(validated, {
      text: `Success. The question has been answered with ${validated.sources.length} cited fact(s).${droppedNote}`,
    });
  },
});

/** A keyword search over a few passages: the passage sharing most words with the question. */
export function keywordSearch(passages: readonly string[]): TextSearch {
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z0-9]+/g) ?? []);
  return (question) => {
    const asked = words(question);
    let best: string | undefined;
    let bestScore = 0;
    for (const passage of passages) {
      let score = 0;
      for (const word of words(passage)) if (asked.has(word) && word.length > 3) score++;
      if (score > bestScore) [best, bestScore] = [passage, score];
    }
    return best;
  };
}

/** The passages of the example's database. */
export const LIGHTHOUSE_PASSAGES = [
  'The Tower of Hercules is a Roman lighthouse in A Coruña, Spain. Built in the 1st century, it is the oldest lighthouse still in use. It was declared a World Heritage Site in 2009.',
  'The Pharos of Alexandria was built in the 3rd century BC. It was damaged by earthquakes and had fallen into ruin by 1480.',
];
