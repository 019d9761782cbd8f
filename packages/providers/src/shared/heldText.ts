import type { ToolSpec } from '@agentchart/core';
import { type TextualCall, textualToolCalls } from './textualToolCalls.js';

/**
 * Reply text held back while it may still turn out to be a tool call
 * written out as text (it starts like JSON, a fence or `<tool_call>`); text
 * that cannot be one is released at once, so answers still stream.
 *
 * @example
 * const held = new HeldText(true);
 * held.push('{"name":');          // undefined (held)
 * held.push('"add","arguments":{}}');
 * held.finish([add]);             // { calls: [{ name: 'add', arguments: {} }] }
 */
export class HeldText {
  private text = '';
  private holding: boolean;

  /**
   * `hold`: whether to look for written-out calls at all (tools offered,
   * option on); `holdAll`: keep every piece (a forced step, whose text is
   * read as a call at the end).
   */
  constructor(
    hold: boolean,
    private readonly holdAll = false,
  ) {
    this.holding = hold || holdAll;
  }

  /** Takes a piece of text; returns what may be shown now (undefined while held). */
  push(piece: string): string | undefined {
    if (!this.holding) return piece;
    this.text += piece;
    if (this.holdAll || mayBeTextualCall(this.text)) return undefined;
    this.holding = false;
    const released = this.text;
    this.text = '';
    return released;
  }

  /** All text held so far (for a forced reply). */
  get pending(): string {
    return this.text;
  }

  /** At the end of the reply: the held text as calls of offered tools, or as text to show. */
  finish(tools: readonly ToolSpec[]): { calls?: TextualCall[]; text?: string } {
    const text = this.text;
    this.text = '';
    if (text === '') return {};
    const calls = textualToolCalls(text, tools);
    return calls === undefined ? { text } : { calls };
  }
}

/** Whether text so far could still become a written-out call. */
function mayBeTextualCall(text: string): boolean {
  const start = text.trimStart();
  if (start === '') return true;
  return start.startsWith('{') || start.startsWith('[') || start.startsWith('```') || '<tool_call>'.startsWith(start.slice(0, 11));
}
