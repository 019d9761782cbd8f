import type { ReliableToolEvent } from '@agentchart/actors';
import type { Observable } from 'rxjs';

/**
 * Prints a reliable tool's events as a readable log: each attempt, the
 * runner's call and hypothesis, the tool's result and the validator's verdict.
 *
 * @example
 * printReliableToolEvents(flights.events$);
 */
export function printReliableToolEvents(events$: Observable<ReliableToolEvent>, write: (line: string) => void = (line) => console.log(line)): void {
  events$.subscribe((event) => {
    switch (event.type) {
      case 'reliable.run.started':
        write(`▶ ${event.tool}: "${event.task}" (at most ${event.maxToolInvocations} attempts)`);
        return event.validationPromptAddition === undefined ? undefined : write(`  criteria for this run: ${event.validationPromptAddition}`);
      case 'reliable.attempt.started':
        return write(`  attempt ${event.attempt}`);
      case 'reliable.runner.call':
        return write(`    🔧 ${JSON.stringify(event.args)} — ${event.hypothesis}`);
      case 'reliable.tool.result':
        return write(`    ${event.isError ? '✗' : '✓'} ${event.text.replaceAll('\n', ' | ')}`);
      case 'reliable.validator.verdict':
        return write(`    ${event.valid ? '👍' : '👎'} ${event.justification}`);
      case 'reliable.attempt.finished':
        return event.record.outcome === 'no-valid-call' ? write(`    ✗ ${event.record.failureReason ?? ''}`) : undefined;
      case 'reliable.run.finished':
        return write(`■ ${event.tool}: ${event.ok ? 'valid result' : `failed (${event.failureReason ?? ''})`} after ${event.attempts} attempt(s)`);
    }
  });
}
