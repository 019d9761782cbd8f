import { type RunEvent, ToolDefinitionError, ToolError, defineTool } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { scriptedModel } from '@agentchart/providers';
import { firstValueFrom, toArray } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

/** Books a seat; the seats still free are in shared state. */
const bookSeat = defineTool({
  name: 'book_seat',
  description: 'Books a seat on the flight.',
  parameters: (ctx) =>
    z
      .object({
        seat: z.string().regex(/^[0-9]+[A-F]$/, 'A seat is a row number and a letter A-F, e.g. "12C".'),
        passenger: z.string().min(2, "Give the passenger's full name."),
      })
      .superRefine(({ seat }, issues) => {
        const free = (ctx.state.get('freeSeats') as string[] | undefined) ?? [];
        if (!free.includes(seat)) {
          issues.addIssue({ code: 'custom', path: ['seat'], message: `Seat ${seat} is taken. Free seats: ${free.join(', ')}.` });
        }
      }),
  execute: ({ seat, passenger }, ctx) => {
    ctx.state.update('freeSeats', (free) => (free as string[]).filter((s) => s !== seat));
    return `Booked ${seat} for ${passenger}.`;
  },
});

describe('validators that read shared state', () => {
  it('tells the model what to fix, does not run the tool, and lets the run go on', async () => {
    const model = scriptedModel([
      { toolCalls: [{ name: 'book_seat', arguments: { seat: '3A', passenger: 'Ada Lovelace' } }] },
      { toolCalls: [{ name: 'book_seat', arguments: { seat: '4B', passenger: 'Ada Lovelace' } }] },
      { text: 'Booked 4B.' },
    ]);
    const agent = createAgent({ name: 'airline', model, tools: [bookSeat] });
    const result = await agent.run('Book me a seat.', { state: { freeSeats: ['4B', '7F'] } }).result;
    expect(result.toolCalls.map(({ content, isError }) => ({ content, isError }))).toEqual([
      {
        content: 'Invalid arguments for tool "book_seat":\n- seat: Seat 3A is taken. Free seats: 4B, 7F.\nFix these and call "book_seat" again.',
        isError: true,
      },
      { content: 'Booked 4B for Ada Lovelace.', isError: false },
    ]);
    expect(result.state).toEqual({ freeSeats: ['7F'] });
    expect(result.stopReason).toBe('completed');
  });

  it('sends every failing message back in one tool result', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'book_seat', arguments: { seat: 'window', passenger: 'A' } }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'airline', model, tools: [bookSeat] }).run('Book.', { state: { freeSeats: [] } }).result;
    expect(result.toolCalls[0]?.content).toBe(
      'Invalid arguments for tool "book_seat":\n' +
        '- seat: A seat is a row number and a letter A-F, e.g. "12C".\n' +
        "- passenger: Give the passenger's full name.\n" +
        '- seat: Seat window is taken. Free seats: .\n' +
        'Fix these and call "book_seat" again.',
    );
  });

  it('runs transforms that read shared state before execute', async () => {
    const tag = defineTool({
      name: 'tag',
      description: 'Tags the current document.',
      parameters: (ctx) =>
        z.object({ tags: z.array(z.string()) }).transform(({ tags }) => ({
          document: String(ctx.state.get('document')),
          tags: tags.map((tag) => tag.toLowerCase()),
        })),
      execute: ({ document, tags }) => `${document}: ${tags.join(', ')}`,
    });
    expect(tag.jsonSchema).toEqual({
      type: 'object',
      properties: { tags: { type: 'array', items: { type: 'string' } } },
      required: ['tags'],
    });
    const model = scriptedModel([{ toolCalls: [{ name: 'tag', arguments: { tags: ['Urgent', 'Q3'] } }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'tagger', model, tools: [tag] }).run('Tag it.', { state: { document: 'report.pdf' } }).result;
    expect(result.toolCalls[0]?.content).toBe('report.pdf: urgent, q3');
  });

  it('validates with async refinements, call after call', async () => {
    const lookups: string[] = [];
    const reserve = defineTool({
      name: 'reserve',
      description: 'Reserves a username.',
      parameters: z.object({
        username: z.string().refine(
          async (name) => {
            lookups.push(name);
            await Promise.resolve();
            return name !== 'taken';
          },
          { message: 'That username is taken.' },
        ),
      }),
      execute: ({ username }) => `Reserved ${username}.`,
    });
    const model = scriptedModel([
      { toolCalls: [{ name: 'reserve', arguments: { username: 'taken' } }] },
      { toolCalls: [{ name: 'reserve', arguments: { username: 'ada' } }] },
      { toolCalls: [{ name: 'reserve', arguments: { username: 'grace' } }] },
      { text: 'ok' },
    ]);
    const result = await createAgent({ name: 'accounts', model, tools: [reserve] }).run('Reserve a name.').result;
    expect(result.toolCalls.map(({ content, isError }) => ({ content, isError }))).toEqual([
      { content: 'Invalid arguments for tool "reserve":\n- username: That username is taken.\nFix these and call "reserve" again.', isError: true },
      { content: 'Reserved ada.', isError: false },
      { content: 'Reserved grace.', isError: false },
    ]);
    // The first call finds out the schema is async (its refinement starts twice); later calls parse once.
    expect(lookups).toEqual(['taken', 'taken', 'ada', 'grace']);
  });

  it('explains how to validate when a contextual schema is parsed outside a call', () => {
    expect(() => bookSeat.parameters.parse({ seat: '1A', passenger: 'Ada' })).toThrow(ToolDefinitionError);
    expect(() => bookSeat.parameters.parse({ seat: '1A', passenger: 'Ada' })).toThrow(/validateToolArguments\(tool, call, ctx\)/);
  });
});

describe('errors meant for the model', () => {
  const lookup = defineTool({
    name: 'lookup',
    description: 'Looks a word up.',
    parameters: (ctx) =>
      z.object({ word: z.string() }).refine(() => {
        if (ctx.state.get('dictionary') === undefined) throw new ToolError('Please call open_dictionary first.');
        return true;
      }),
    execute: ({ word }) => {
      if (word === 'crash') throw new TypeError("Cannot read properties of undefined (reading 'entries')");
      if (word.length > 10) throw new ToolError(`"${word}" is not in the dictionary. Try a shorter word.`);
      return `${word}: a word`;
    },
  });

  it('shows a ToolError message exactly, and a crash as a failure with its error on events$', async () => {
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'lookup', arguments: { word: 'antidisestablishment' } },
          { name: 'lookup', arguments: { word: 'crash' } },
        ],
      },
      { text: 'Sorry.' },
    ]);
    const run = createAgent({ name: 'reader', model, tools: [lookup] }).run('Look up.', { state: { dictionary: 'en' } });
    const events = await firstValueFrom(run.events$.pipe(toArray()));
    const results = events.filter((event): event is Extract<RunEvent, { type: 'tool.result' }> => event.type === 'tool.result');
    expect(results.map(({ content, isError, error }) => ({ content, isError, error }))).toEqual([
      {
        content: '"antidisestablishment" is not in the dictionary. Try a shorter word.',
        isError: true,
        error: { name: 'ToolError', code: 'TOOL_ERROR', message: '"antidisestablishment" is not in the dictionary. Try a shorter word.' },
      },
      {
        content: 'Tool "lookup" failed: Cannot read properties of undefined (reading \'entries\')',
        isError: true,
        error: {
          name: 'TypeError',
          message: "Cannot read properties of undefined (reading 'entries')",
          stack: expect.stringMatching(/^TypeError: Cannot read properties of undefined \(reading 'entries'\)\n\s+at /),
        },
      },
    ]);
    expect((await run.result).stopReason).toBe('completed');
  });

  it('shows a ToolError thrown by a refinement exactly as its message', async () => {
    const model = scriptedModel([{ toolCalls: [{ name: 'lookup', arguments: { word: 'cat' } }] }, { text: 'ok' }]);
    const result = await createAgent({ name: 'reader', model, tools: [lookup] }).run('Look up.').result;
    expect(result.toolCalls[0]).toMatchObject({ content: 'Please call open_dictionary first.', isError: true });
  });
});
