import { type AgentRun, createAgent, createGroupChat } from '@agentchart/actors';
import { type ChatModel, type ModelEvent, defineTool } from '@agentchart/core';
import { Observable } from 'rxjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';

// The agent's model caller is its resident `model` child, spawned with the run, watched or not.

/** A model whose calls never answer: it records each call and whether the call was unsubscribed (aborted). */
function hangingModel(): ChatModel & { calls: { unsubscribed: boolean }[] } {
  const calls: { unsubscribed: boolean }[] = [];
  return {
    provider: 'test',
    modelName: 'hanging',
    calls,
    stream: () =>
      new Observable<ModelEvent>(() => {
        const call = { unsubscribed: false };
        calls.push(call);
        return () => {
          call.unsubscribed = true;
        };
      }),
  };
}

const echo = defineTool({
  name: 'echo',
  description: 'Says it back.',
  parameters: z.object({ text: z.string() }),
  execute: ({ text }) => text,
});

const tick = () => new Promise((resolve) => setTimeout(resolve, 0));
const childrenOf = (run: AgentRun) => Object.keys(run.actor.getSnapshot().children).sort();

describe("the agent's `model` child", () => {
  it('a run nobody inspects calls the model through its `model` child; an abort unsubscribes the call in flight', async () => {
    const model = hangingModel();
    const run = createAgent({ name: 'a', model, tools: [echo] }).run('Go.');
    await tick();
    expect(run.actor.getSnapshot().value).toBe('thinking');
    expect(model.calls).toEqual([{ unsubscribed: false }]);
    expect(childrenOf(run)).toEqual(['model']);
    run.abort();
    const result = await run.result;
    expect(result.stopReason).toBe('aborted');
    expect(model.calls).toEqual([{ unsubscribed: true }]);
  });

  it('an inspected run sees every model call as a command to the `model` child', async () => {
    const model = hangingModel();
    const seen: string[] = [];
    const run = createAgent({ name: 'a', model, tools: [echo] }).run('Go.', {
      inspect: (event) => {
        if (event.type === '@xstate.event' && event.event.type === 'model.call') seen.push((event.actorRef as unknown as { id: string }).id);
      },
    });
    expect(childrenOf(run)).toEqual(['model']);
    await tick();
    expect(seen).toEqual(['model']);
    run.abort();
    await run.result;
    expect(model.calls).toEqual([{ unsubscribed: true }]);
  });

  it("a chat that ends during an agent actor's model call unsubscribes it", async () => {
    const model = hangingModel();
    const run = createGroupChat({ agents: [createAgent({ name: 'a', model, tools: [echo] })], speakerSelection: 'round_robin', maxRounds: 1 }).run(
      'Go.',
    );
    await tick();
    expect(model.calls).toEqual([{ unsubscribed: false }]);
    run.abort();
    const result = await run.result;
    expect(result.reason).toBe('aborted');
    expect(model.calls).toEqual([{ unsubscribed: true }]);
  });
});
