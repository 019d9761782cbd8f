import { inspectWithStately } from '@agentchart/inspect';
import { describe, expect, it } from 'vitest';
import { WebSocket } from 'ws';
import { freePort } from '../support/freePort.js';
import { SECRET, lookupAgent } from './calculatorRun.js';

interface Received {
  type: string;
  sessionId: string;
  snapshot?: { status?: string; value?: unknown; context?: Record<string, unknown> };
}

async function connectReceiver(url: string): Promise<{ socket: WebSocket; raw: string[] }> {
  for (let attempt = 0; ; attempt++) {
    const socket = new WebSocket(url);
    const raw: string[] = [];
    socket.on('message', (data) => raw.push(data.toString()));
    const opened = await new Promise<boolean>((resolve) => {
      socket.once('open', () => resolve(true));
      socket.once('error', () => resolve(false));
    });
    if (opened) return { socket, raw };
    if (attempt > 40) throw new Error(`nothing listens on ${url}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('inspectWithStately', () => {
  it("sends a run's inspection events over WebSocket with sanitised context", async () => {
    const port = await freePort();
    const stately = inspectWithStately({ port, open: false });
    const receiver = await connectReceiver(`ws://127.0.0.1:${port}`);
    try {
      const leakedKey = 'sk-proj-Ab12Cd34Ef56Gh78Ij90Kl12';
      const longQuestion = `How many books? (key ${leakedKey}) ${'very '.repeat(2000)}`;
      const run = lookupAgent().run(longQuestion, { inspect: stately.inspect });
      await run.result;

      const rootDone = () =>
        receiver.raw.some((text) => {
          const event = JSON.parse(text) as Received;
          return event.type === '@xstate.snapshot' && event.snapshot?.value === 'ended';
        });
      for (let waited = 0; !rootDone() && waited < 5000; waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
      expect(rootDone()).toBe(true);

      const all = receiver.raw.join('\n');
      expect(all).not.toContain(SECRET);
      expect(all).not.toContain(leakedKey); // a credential shape inside text goes too
      expect(all).not.toContain('very '.repeat(500));
      expect(all).toContain('[redacted]');

      const events = receiver.raw.map((text) => JSON.parse(text) as Received);
      expect(new Set(events.map((event) => event.type))).toEqual(new Set(['@xstate.actor', '@xstate.event', '@xstate.snapshot']));
      const done = events.find((event) => event.type === '@xstate.snapshot' && event.snapshot?.value === 'ended');
      const context = done?.snapshot?.context ?? {};
      expect(Object.keys(context)).not.toContain('runtime');
      expect(context.step).toBe(2);
      const [question] = context.messages as { content: string }[];
      expect(question?.content).toMatch(/^How many books\? \(key \[redacted\]\) very very .*…\[\+\d+ characters\]$/);
      expect(question?.content.length).toBeLessThan(2100);
    } finally {
      receiver.socket.close();
      stately.stop();
    }
  });
});

describe('statelySanitizers', () => {
  it("redacts the payloads of @statelyai/inspect's messages, never the protocol's own fields", async () => {
    const { statelySanitizers } = await import('@agentchart/inspect');
    const { serialize } = statelySanitizers();
    const message = {
      type: '@xstate.snapshot',
      sessionId: 'x:3',
      rootId: 'x:0',
      id: 'm1',
      _version: '0.7.2',
      event: { type: 'login', password: 'hunter2' },
      snapshot: { status: 'active', context: { sessionId: 'user-session-1', apiKey: 'k-123' } },
    };
    expect(serialize(message)).toEqual({
      ...message,
      event: { type: 'login', password: '[redacted]' },
      snapshot: { status: 'active', context: { sessionId: '[redacted]', apiKey: '[redacted]' } },
    });
  });
});
