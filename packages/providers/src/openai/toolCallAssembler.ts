import type { Message, ToolCall } from '@agentchart/core';
import { synthesizeCallId } from '../shared/callIds.js';
import { toolCallFromText } from '../shared/parseToolArguments.js';

/** One streamed tool-call fragment, as servers send it (`index` is sometimes missing). */
export interface ToolCallDelta {
  index?: number;
  id?: string;
  function?: { name?: string; arguments?: string };
}

interface PartialCall {
  id: string | undefined;
  name: string;
  argumentsText: string;
}

/**
 * Assembles streamed tool-call deltas into whole calls. Deltas are matched
 * by `index` as the OpenAI protocol says. When a server omits `index`, a new
 * `id` starts a new call, and a delta without id continues the latest call —
 * unless it names a tool after the latest call's arguments are complete JSON,
 * which starts another. A server that reuses an index with a new id gets a
 * new call too.
 *
 * @example
 * const calls = new ToolCallAssembler();
 * calls.add({ index: 0, id: 'call_1', function: { name: 'add', arguments: '{"a":' } });
 * calls.add({ index: 0, function: { arguments: '1}' } });
 * calls.finish(transcript); // [{ id: 'call_1', name: 'add', arguments: { a: 1 } }]
 */
export class ToolCallAssembler {
  private readonly calls: PartialCall[] = [];
  private readonly slotByIndex = new Map<number, number>();

  add(delta: ToolCallDelta): void {
    const call = this.callFor(delta);
    const name = delta.function?.name;
    if (name && call.name !== name) call.name += name;
    if (delta.function?.arguments) call.argumentsText += delta.function.arguments;
  }

  get size(): number {
    return this.calls.length;
  }

  /** The whole calls; ids the server did not send are synthesized from the transcript. */
  finish(transcript: readonly Message[]): ToolCall[] {
    return this.calls.map((call, position) =>
      toolCallFromText(call.id ?? synthesizeCallId('call', transcript, position), call.name, call.argumentsText),
    );
  }

  private callFor(delta: ToolCallDelta): PartialCall {
    if (delta.index !== undefined) {
      const slot = this.slotByIndex.get(delta.index);
      const existing = slot === undefined ? undefined : this.calls[slot];
      if (existing && (delta.id === undefined || existing.id === undefined || existing.id === delta.id)) {
        existing.id ??= delta.id;
        return existing;
      }
      this.slotByIndex.set(delta.index, this.calls.length);
      return this.start(delta.id);
    }
    if (delta.id !== undefined) return this.calls.find((call) => call.id === delta.id) ?? this.start(delta.id);
    const latest = this.calls.at(-1);
    const startsAnother = latest !== undefined && delta.function?.name !== undefined && isCompleteJson(latest.argumentsText);
    return latest === undefined || startsAnother ? this.start(undefined) : latest;
  }

  private start(id: string | undefined): PartialCall {
    const call: PartialCall = { id, name: '', argumentsText: '' };
    this.calls.push(call);
    return call;
  }
}

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
