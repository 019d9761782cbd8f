import type { ChatEvent, GroupChatRun } from '@agentchart/actors';
import { createAgent } from '@agentchart/actors';
import type { AnyTool } from '@agentchart/core';
import { type ScriptedTurn, scriptedModel } from '@agentchart/providers';

/** An agent on a scripted model that says `texts` in order (then the last one again). */
export function talker(name: string, texts: readonly (string | ScriptedTurn)[], tools: readonly AnyTool[] = []) {
  const model = scriptedModel((_request, index) => {
    const text = texts[Math.min(index, texts.length - 1)] ?? '';
    return typeof text === 'string' ? { text } : text;
  });
  return { agent: createAgent({ name, model, instructions: `You are ${name}.`, tools }), model };
}

/** Every event of a run, collected as it happens. */
export function record(run: GroupChatRun): ChatEvent[] {
  const events: ChatEvent[] = [];
  run.events$.subscribe((event) => events.push(event));
  return events;
}

/** The speakers of `speaker.selected` events, in order. */
export const speakers = (events: readonly ChatEvent[]) => events.flatMap((event) => (event.type === 'speaker.selected' ? [event.speaker] : []));
