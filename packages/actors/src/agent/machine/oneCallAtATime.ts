import type { AnyTool, ToolCall } from '@agentchart/core';
import type { ToolOutcome } from './toolOutcome.js';
import { exportedName } from '@agentchart/core/internal';

const NO_REFUSALS: ReadonlyMap<number, ToolOutcome> = new Map();

/**
 * The refusals of a batch's `oneCallAtATime` calls: such a call runs only
 * when it is the only call of its reply. Returns an outcome per refused call
 * (by index); the other calls of the batch run as usual.
 *
 * @example
 * oneCallAtATimeRefusals(tools, [deploy, lint]).get(0)?.content
 * // 'Tool "deploy" must be called on its own, ...'
 */
export function oneCallAtATimeRefusals(tools: readonly AnyTool[], calls: readonly ToolCall[]): ReadonlyMap<number, ToolOutcome> {
  // A reply of one call (every step of a one-call-per-step loop) refuses nothing: no map per step.
  if (calls.length < 2) return NO_REFUSALS;
  const refusals = new Map<number, ToolOutcome>();
  const alone = new Set(tools.filter((tool) => tool.oneCallAtATime === true).map((tool) => tool.name));
  // The model wrote the names: redacted and cut (`exportedName`).
  const names = calls.map((call) => exportedName(call.name)).join(', ');
  calls.forEach((call, index) => {
    if (!alone.has(call.name)) return;
    const message =
      `Tool "${call.name}" must be called on its own, but this reply made ${calls.length} tool calls (${names}), ` +
      `so it was not run. Call "${call.name}" again in a reply with no other tool call.`;
    refusals.set(index, {
      content: message,
      isError: true,
      error: { name: 'ToolError', code: 'TOOL_CALL_NOT_ALONE', message },
    });
  });
  return refusals;
}
