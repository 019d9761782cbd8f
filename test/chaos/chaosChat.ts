/**
 * The group chat of the crash test, built alike by every worker: `payer`
 * (the chaos agent's tools: `pay` asks for approval, `notify` is not
 * idempotent, `refresh` is) calls all three in one reply, `checker` answers,
 * then `boss` (a person) has the last turn. Both agents' models stream
 * slowly (a few text pieces, milliseconds apart), so a kill can land in the
 * middle of a model stream. `chaosNestedChat` runs the same chat nested in
 * another: `lead` speaks, then the whole office takes one turn.
 */
import type { ChatModel, ModelEvent, ToolCall } from '@agentchart/core';
import { type GroupChat, createAgent, createGroupChat, humanAgent } from '@agentchart/actors';
import { Observable } from 'rxjs';
import { chaosTools } from './chaosAgent.js';

/** A model that streams its reply in pieces, `gapMs` apart (aborted with its request). */
export function slowStreamingModel(reply: (messages: readonly { role: string }[]) => { text: string; toolCalls?: ToolCall[] }, gapMs = 3): ChatModel {
  return {
    provider: 'chaos',
    modelName: 'slow-stream',
    stream(request) {
      return new Observable<ModelEvent>((subscriber) => {
        const { text, toolCalls = [] } = reply(request.messages);
        const pieces = text.match(/.{1,4}/g) ?? [];
        let index = 0;
        const timer = setInterval(() => {
          const piece = pieces[index++];
          if (piece !== undefined) return subscriber.next({ type: 'text-delta', text: piece });
          clearInterval(timer);
          for (const call of toolCalls) subscriber.next({ type: 'tool-call', call });
          subscriber.next({ type: 'finish', reason: toolCalls.length > 0 ? 'tool-calls' : 'stop' });
          subscriber.complete();
        }, gapMs);
        return () => clearInterval(timer);
      });
    },
  };
}

export function chaosChat(ledger: string): GroupChat {
  const payer = createAgent({
    name: 'payer',
    model: slowStreamingModel((messages) =>
      messages.at(-1)?.role === 'tool'
        ? { text: 'Paid Bob, told him, refreshed.' }
        : {
            text: 'Paying Bob now.',
            toolCalls: [
              { id: 'pay', name: 'pay', arguments: { to: 'Bob' } },
              { id: 'notify', name: 'notify', arguments: { to: 'Bob' } },
              { id: 'refresh', name: 'refresh', arguments: { to: 'Bob' } },
            ],
          },
    ),
    tools: chaosTools(ledger),
  });
  const checker = createAgent({ name: 'checker', model: slowStreamingModel(() => ({ text: 'Checked: Bob was paid once.' })) });
  return createGroupChat({
    name: 'chaos_office',
    agents: [payer, checker, humanAgent({ name: 'boss' })],
    speakerSelection: 'round_robin',
    maxRounds: 3,
  });
}

/** `chaos_hq`: `lead` (streams a line), then `chaos_office` (above) as one nested participant. */
export function chaosNestedChat(ledger: string): GroupChat {
  const lead = createAgent({ name: 'lead', model: slowStreamingModel(() => ({ text: 'Office: pay Bob 250.' })) });
  return createGroupChat({ name: 'chaos_hq', agents: [lead, chaosChat(ledger)], speakerSelection: 'round_robin', maxRounds: 2 });
}
