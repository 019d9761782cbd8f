import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAgent, createGroupChat, resumeChatFromStore, startChatInStore } from '@agentchart/actors';
import { enableTracing } from '@agentchart/otel';
import { scriptedModel } from '@agentchart/providers';
import { createSqliteRunStore } from '@agentchart/store/sqlite';
import { trace } from '@opentelemetry/api';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { testClock } from '../store/runStoreContract.js';
import { RESUMED_TREE, officeChat } from './officeChat.js';
import { spanTree } from './spanTree.js';

const SHOWN = ['gen_ai.agent.name', 'agentchart.stop_reason'];
const dir = mkdtempSync(join(tmpdir(), 'agentchart-otel-enable-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const talker = (name: string, text: string) => createAgent({ name, model: scriptedModel(async () => ({ text })) });

describe('enableTracing: every run and chat of the process on the global tracer provider', () => {
  const exporter = new InMemorySpanExporter();
  let stop: () => void = () => undefined;
  beforeEach(() => {
    exporter.reset();
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    stop = enableTracing();
  });
  afterEach(() => {
    stop();
    trace.disable();
  });

  it('one call traces agent runs and chats, a nested chat inside its outer chat only, and nothing once stopped', async () => {
    await talker('solo', 'Hello.').run('Hi.').result;
    const team = createGroupChat({ name: 'team', agents: [talker('researcher', 'Found it.')], speakerSelection: 'round_robin', maxRounds: 1 });
    const outer = createGroupChat({ name: 'desk', agents: [talker('lead', 'Go.'), team], speakerSelection: 'round_robin', maxRounds: 2 });
    await outer.run('Find it.').result;
    stop();
    await talker('unseen', 'Quiet.').run('Hi.').result;

    expect(spanTree(exporter.getFinishedSpans(), SHOWN)).toBe(
      [
        'invoke_agent solo [INTERNAL] agent.name="solo" agentchart.stop_reason="completed"',
        '  chat scripted [CLIENT]',
        'invoke_workflow desk [INTERNAL] agent.name="desk" agentchart.stop_reason="max-rounds" events=agentchart.speaker.selected,agentchart.speaker.selected',
        '  invoke_agent lead [INTERNAL] agent.name="lead" agentchart.stop_reason="completed"',
        '    chat scripted [CLIENT]',
        '  invoke_workflow team [INTERNAL] agent.name="team" agentchart.stop_reason="max-rounds" events=agentchart.speaker.selected',
        '    invoke_agent researcher [INTERNAL] agent.name="researcher" agentchart.stop_reason="completed"',
        '      chat scripted [CLIENT]',
      ].join('\n'),
    );
  });

  it('a chat resumed from the store is traced as one trace under its invoke_workflow span', async () => {
    const clock = testClock();
    const path = join(dir, 'runs.db');
    const [first, second] = [await createSqliteRunStore({ path, now: clock.now }), await createSqliteRunStore({ path, now: clock.now })];
    try {
      stop(); // the first "process" is not traced: only the resumed part is asserted
      await startChatInStore(officeChat(), 'Pay Bob.', { store: first, chatId: 'office-1', owner: 'w1', leaseMs: 60_000 });
      while ((await first.loadRun('office-1'))?.status !== 'waiting') await new Promise((resolve) => setTimeout(resolve, 5));
      clock.advance(60_001);
      exporter.reset();
      stop = enableTracing();

      const durable = await resumeChatFromStore(officeChat(), 'office-1', { store: second, owner: 'w2', leaseMs: 60_000 });
      while (durable.chat.waiting()?.kind !== 'approval') await new Promise((resolve) => setTimeout(resolve, 5));
      durable.chat.approve('p1');
      await durable.chat.result;

      const spans = exporter.getFinishedSpans();
      expect(spanTree(spans, SHOWN)).toBe(RESUMED_TREE);
      expect(new Set(spans.map((span) => span.spanContext().traceId)).size).toBe(1);
    } finally {
      await Promise.all([first.close(), second.close()]);
    }
  });
});
