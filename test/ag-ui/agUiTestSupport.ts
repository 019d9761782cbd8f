import type { BaseEvent, HttpAgent, RunAgentParameters } from '@ag-ui/client';

/** Runs one AG-UI run with the official client (its event verification on) and returns every event it saw, in order. */
export async function runWithClient(agent: HttpAgent, parameters: RunAgentParameters = {}): Promise<BaseEvent[]> {
  const events: BaseEvent[] = [];
  await agent.runAgent(parameters, { onEvent: ({ event }) => void events.push(event) });
  return events;
}

/** An event as a short line: its type and what tells it apart (for exact sequence assertions). */
export function describeEvent(event: BaseEvent): string {
  const e = event as BaseEvent & Record<string, unknown>;
  switch (event.type) {
    case 'TEXT_MESSAGE_START':
      return `TEXT_MESSAGE_START ${String(e.role)}${e.name === undefined ? '' : ` ${String(e.name)}`}`;
    case 'TEXT_MESSAGE_CONTENT':
      return `TEXT_MESSAGE_CONTENT ${JSON.stringify(e.delta)}`;
    case 'TOOL_CALL_START':
      return `TOOL_CALL_START ${String(e.toolCallName)} ${String(e.toolCallId)}`;
    case 'TOOL_CALL_ARGS':
      return `TOOL_CALL_ARGS ${String(e.delta)}`;
    case 'TOOL_CALL_RESULT':
      return `TOOL_CALL_RESULT ${String(e.toolCallId)} ${JSON.stringify(e.content)}`;
    case 'STEP_STARTED':
    case 'STEP_FINISHED':
      return `${event.type} ${String(e.stepName)}`;
    case 'STATE_SNAPSHOT':
      return `STATE_SNAPSHOT ${JSON.stringify(e.snapshot)}`;
    case 'STATE_DELTA':
      return `STATE_DELTA ${JSON.stringify(e.delta)}`;
    case 'CUSTOM':
      return `CUSTOM ${String(e.name)} ${JSON.stringify(e.value)}`;
    case 'MESSAGES_SNAPSHOT':
      return `MESSAGES_SNAPSHOT ${(e.messages as unknown[]).length}`;
    case 'RUN_FINISHED': {
      const outcome = e.outcome as { type: string; interrupts?: { reason: string; metadata?: unknown }[] } | undefined;
      return outcome?.type === 'interrupt'
        ? `RUN_FINISHED interrupt ${outcome.interrupts?.map((interrupt) => `${interrupt.reason} ${JSON.stringify(interrupt.metadata)}`).join(', ')}`
        : `RUN_FINISHED ${outcome?.type ?? 'success'}`;
    }
    case 'RUN_ERROR':
      return `RUN_ERROR ${String(e.code)}: ${String(e.message)}`;
    default:
      return event.type;
  }
}
