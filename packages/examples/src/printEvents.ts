import type { RunEvent } from '@agentchart/core';
import type { Observable } from 'rxjs';

/**
 * Prints a run's events as a readable log: who said what, which tool ran with
 * which arguments and what it returned. Text deltas are written as they come.
 *
 * @example
 * printEvents(agent.run('Hi').events$);
 */
export function printEvents(events$: Observable<RunEvent>, write: (text: string) => void = (t) => process.stdout.write(t)): void {
  let streaming = false;
  const line = (text: string) => {
    if (streaming) write('\n');
    streaming = false;
    write(`${text}\n`);
  };
  events$.subscribe((event) => {
    switch (event.type) {
      case 'run.started':
        line(`▶ ${event.agent} starts: ${event.input.map((m) => `[${m.role}] ${m.content}`).join(' | ')}`);
        break;
      case 'model.request':
        line(`… ${event.agent} asks the model (step ${event.step}, tools: ${event.tools.join(', ') || 'none'})`);
        break;
      case 'text.delta':
        if (!streaming) write(`💬 ${event.agent}: `);
        streaming = true;
        write(event.text);
        break;
      case 'tool.call':
        line(`🔧 ${event.call.name}(${JSON.stringify(event.call.arguments ?? event.call.malformedArguments)})`);
        break;
      case 'tool.result':
        line(`${event.isError ? '✗' : '✓'} ${event.toolName} → ${event.content}`);
        break;
      case 'tool.refused':
        line(`⛔ ${event.call.name} refused by the ${event.rule} rule: ${event.reason} (allowed now: ${event.allowedTools.join(', ') || 'none'})`);
        break;
      case 'message':
        // Messages the run adds for the model itself, e.g. a tool-rule reminder after an early answer.
        if (event.message.role === 'user') line(`📋 ${event.message.content}`);
        break;
      case 'state.changed':
        line(
          `🗂 state.${event.key} ${event.deleted ? 'deleted' : `= ${JSON.stringify(event.value)}`}${event.toolName ? ` (by ${event.toolName})` : ''}`,
        );
        break;
      case 'tool.progress':
        line(
          `⏳ ${event.toolName} ${event.progress}${event.total === undefined ? '' : `/${event.total}`}${event.message ? `: ${event.message}` : ''}`,
        );
        break;
      case 'model.malformed':
        line(`↻ ${event.agent}'s reply could not be used (${event.reason}): asked once more, counted toward maxConsecutiveErrors`);
        break;
      case 'tools.changed':
        line(`🧰 ${event.agent}'s tools now: ${event.tools.join(', ') || 'none'} (from the next model call on)`);
        break;
      case 'approval.requested':
        line(`✋ ${event.toolName}(${JSON.stringify(event.arguments)}) waits for approval (id ${event.id})`);
        break;
      case 'approval.decided':
        line(`${event.approved ? '👍 approved' : '👎 rejected'} ${event.toolName} (id ${event.id})${event.reason ? `: ${event.reason}` : ''}`);
        break;
      case 'run.finished':
        line(`■ ${event.agent} finished: ${event.reason}${event.error ? ` (${event.error.message})` : ''}`);
        break;
      default:
        break;
    }
  });
}
