import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type AgentRun, createAgent, createGroupChat, resumeRunFromStore, startRunInStore } from '@agentchart/actors';
import { InputAnswerError, type RunEvent, type RunEventOf } from '@agentchart/core';
import { mcpServer } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { firstValueFrom } from 'rxjs';
import { filter } from 'rxjs/operators';
import { afterAll, describe, expect, it } from 'vitest';
import { testClock } from '../store/runStoreContract.js';
import { collectEvents } from './mcpTestServers.js';

const modern = { command: process.execPath, args: [join(import.meta.dirname, 'fixtures', 'modernServer.mjs')] };

/** An agent that books two flights through the server's `book` tool, whose server asks for a seat each time. */
function booker(protocol: '2026-07-28' | '2025-11-25', flights = ['TP123', 'TP456']) {
  const server = mcpServer({ name: 'airline', ...modern, protocol, onInputRequest: 'person' });
  const ids = ['first', 'second'];
  return createAgent({
    name: 'booker',
    model: scriptedModel([
      ...flights.map((flight, index) => ({ toolCalls: [{ id: ids[index]!, name: 'book', arguments: { flight } }] })),
      { text: 'Done.' },
    ]),
    toolSources: [server],
  });
}

/** Answers each `input.requested` of `run` with the next of `answers` (on the next microtask, as a person would later). */
function answerInTurn(
  run: Pick<AgentRun, 'events$' | 'answer'>,
  answers: Parameters<AgentRun['answer']>[1][],
  onAsked?: (event: RunEventOf<'input.requested'>) => void,
) {
  run.events$.subscribe((event) => {
    if (event.type !== 'input.requested') return;
    onAsked?.(event);
    const answer = answers.shift();
    if (answer !== undefined) queueMicrotask(() => run.answer(event.id, answer));
  });
}

const questions = (events: RunEvent[]) =>
  events.flatMap((event) =>
    event.type === 'input.requested'
      ? [['requested', event.callId, event.toolName, event.message, event.requestedSchema]]
      : event.type === 'input.answered'
        ? [['answered', event.callId, event.action]]
        : [],
  );

const seatSchema = expect.objectContaining({ type: 'object', properties: { seat: { type: 'string' } } });

describe("a server's input request answered by the run's person (onInputRequest: 'person')", () => {
  it('2026-07-28: input.requested with the message and schema; run.answer re-sends the call with the answer; a decline reaches the server', async () => {
    const agent = booker('2026-07-28');
    try {
      const run = agent.run('Book both.');
      const events = collectEvents(run);
      const refused: unknown[] = [];
      let pendingSeen: unknown;
      answerInTurn(run, [{ action: 'accept', content: { seat: '12A' } }, { action: 'decline' }], (event) => {
        pendingSeen ??= run.pendingInputs.map(({ id, callId, message }) => ({ id, callId, message }));
        if (event.callId !== 'first') return;
        // Answers that do not fit are refused, and the question still waits.
        for (const wrong of [{ action: 'accept', content: { seat: 12 } }, { action: 'accept' }, { action: 'maybe' }] as never[]) {
          try {
            run.answer(event.id, wrong);
          } catch (error) {
            refused.push([(error as InputAnswerError).code, (error as Error).message]);
          }
        }
        expect(() => run.answer('input_unknown', { action: 'decline' })).toThrow(InputAnswerError);
      });
      const result = await run.result;
      expect(result.toolCalls.map((record) => [record.call.id, record.content, record.isError])).toEqual([
        ['first', 'Booked TP123, seat 12A.', false],
        ['second', 'Not booked: no seat chosen for TP456.', false],
      ]);
      expect(questions(await events)).toEqual([
        ['requested', 'first', 'book', 'Which seat on TP123?', seatSchema],
        ['answered', 'first', 'accept'],
        ['requested', 'second', 'book', 'Which seat on TP456?', seatSchema],
        ['answered', 'second', 'decline'],
      ]);
      expect(refused).toEqual([
        ['INPUT_ANSWER_INVALID', expect.stringContaining('the content does not match the requested schema: /seat must be string. Answer again.')],
        ['INPUT_ANSWER_INVALID', expect.stringContaining('an accepted answer needs `content`, an object.')],
        ['INPUT_ANSWER_INVALID', expect.stringContaining("the action must be 'accept', 'decline' or 'cancel'")],
      ]);
      expect(pendingSeen).toEqual([{ id: expect.stringMatching(/^input_/), callId: 'first', message: 'Which seat on TP123?' }]);
      expect(run.pendingInputs).toEqual([]);
    } finally {
      await agent.close();
    }
  });

  it('2025-11-25: an elicitation/create request during the call, answered the same way; a cancel reaches the server as cancel', async () => {
    const agent = booker('2025-11-25');
    try {
      const run = agent.run('Book both.');
      const events = collectEvents(run);
      answerInTurn(run, [{ action: 'accept', content: { seat: '3C' } }, { action: 'cancel' }]);
      const result = await run.result;
      expect(result.toolCalls.map((record) => record.content)).toEqual([
        'Booked TP123, seat 3C (over initialize).',
        'Not booked (cancel): no seat chosen for TP456.',
      ]);
      expect(questions(await events)).toEqual([
        ['requested', 'first', 'book', 'Which seat on TP123?', seatSchema],
        ['answered', 'first', 'accept'],
        ['requested', 'second', 'book', 'Which seat on TP456?', seatSchema],
        ['answered', 'second', 'cancel'],
      ]);
    } finally {
      await agent.close();
    }
  });

  it("another run's handle cannot answer; aborting the run withdraws the question", async () => {
    const agent = booker('2026-07-28');
    const other = createAgent({ name: 'other', model: scriptedModel([{ text: 'Hi.' }]) });
    try {
      const run = agent.run('Book.');
      const otherRun = other.run('Hi.');
      const events = collectEvents(run);
      run.events$.subscribe((event) => {
        if (event.type !== 'input.requested') return;
        expect(() => otherRun.answer(event.id, { action: 'accept', content: { seat: '1A' } })).toThrow(
          'the run waits for no input (read run.pendingInputs).',
        );
        queueMicrotask(() => run.abort());
      });
      const result = await run.result;
      expect(result.stopReason).toBe('aborted');
      // The run ended with the abort: nothing is reported after it, and nothing waits any more.
      expect(questions(await events).map((entry) => entry.slice(0, 3))).toEqual([['requested', 'first', 'book']]);
      expect(run.pendingInputs).toEqual([]);
      await otherRun.result;
    } finally {
      await agent.close();
    }
  });

  it("in a group chat: the speaking agent's question is an agent.event, answered with the chat's handle", async () => {
    const agent = booker('2026-07-28');
    try {
      await agent.loadTools();
      const chat = createGroupChat({ agents: [agent], speakerSelection: 'round_robin', maxRounds: 1 });
      const run = chat.run('Book both.');
      const asked: string[] = [];
      run.events$.subscribe((event) => {
        if (event.type !== 'agent.event' || event.event.type !== 'input.requested') return;
        const { id, message } = event.event;
        asked.push(message);
        queueMicrotask(() => run.answer(id, asked.length === 1 ? { action: 'accept', content: { seat: '7F' } } : { action: 'decline' }));
      });
      const result = await run.result;
      expect(asked).toEqual(['Which seat on TP123?', 'Which seat on TP456?']);
      const tools = result.messages.filter((message) => message.role === 'tool').map((message) => message.content);
      expect(tools).toEqual(['Booked TP123, seat 7F.', 'Not booked: no seat chosen for TP456.']);
    } finally {
      await agent.close();
    }
  });
});

const dir = mkdtempSync(join(tmpdir(), 'agentchart-mcp-input-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a question pending when a stored run stops', () => {
  it('is asked again on the resumed run (the call is in doubt, so a person approves it first) and answered there', async () => {
    const LEASE = 60_000;
    const clock = testClock();
    const path = join(dir, 'book.db');
    const [first, second] = [await createSqliteRunStore({ path, now: clock.now }), await createSqliteRunStore({ path, now: clock.now })];
    // Each "process" has its own connection to the server; the agents are given the loaded tools.
    const servers = [1, 2].map(() => mcpServer({ name: 'airline', ...modern, onInputRequest: 'person' }));
    const agentOf = async (server: (typeof servers)[number]) =>
      createAgent({
        name: 'booker',
        // By the transcript, not by turn: the resumed agent's model is asked only for the rest of the run.
        model: scriptedModel((request) =>
          request.messages.some((message) => message.role === 'tool')
            ? { text: 'Done.' }
            : { toolCalls: [{ id: 'first', name: 'book', arguments: { flight: 'TP123' } }] },
        ),
        tools: await server.loadTools(),
      });
    try {
      const dying = await agentOf(servers[0]!);
      const started = await startRunInStore(dying, 'Book.', { store: first, runId: 'book-1', owner: 'w1', leaseMs: LEASE });
      const asked = await firstValueFrom(started.run.events$.pipe(filter((event) => event.type === 'input.requested')));
      expect(asked).toMatchObject({ callId: 'first', message: 'Which seat on TP123?' });
      // The process stops here, unanswered; its lease lapses.
      clock.advance(LEASE + 1);

      const resuming = await agentOf(servers[1]!);
      const recovered = await resumeRunFromStore(resuming, 'book-1', { store: second, owner: 'w2', leaseMs: LEASE });
      expect(recovered.inDoubt.map((entry) => [entry.callId, entry.toolName])).toEqual([['first', 'book']]);
      expect(recovered.run.pendingApprovals.map((request) => request.id)).toEqual(['first']);
      const events = collectEvents(recovered.run);
      answerInTurn(recovered.run, [{ action: 'accept', content: { seat: '2B' } }]);
      recovered.run.approve('first');
      const result = await recovered.run.result;
      expect(result.toolCalls.map((record) => record.content)).toEqual(['Booked TP123, seat 2B.']);
      expect(questions(await events).map((entry) => entry.slice(0, 3))).toEqual([
        ['requested', 'first', 'book'],
        ['answered', 'first', 'accept'],
      ]);
      expect(started.run.pendingInputs.map((question) => question.id)).toEqual([asked.id]);
      started.run.abort();
      expect(started.run.pendingInputs).toEqual([]);
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await Promise.all([first.close(), second.close()]);
    }
  });
});
