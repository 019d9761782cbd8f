import type { Trace, TraceEntry, TraceEntryOf } from './traceFormat.js';

/** What `formatTimeline` shows. */
export interface TimelineOptions {
  /** Also list every event the actors received (default false). */
  verbose?: boolean;
}

/**
 * Writes a trace as a readable timeline: who speaks, tool calls and their
 * results, refusals, and every machine's state changes, with times.
 *
 * @example
 * console.log(formatTimeline(await readTraceFile('run.trace.ndjson')));
 */
export function formatTimeline(trace: Trace, options: TimelineOptions = {}): string {
  const lines = [
    `agentchart trace${trace.header.title ? ` "${trace.header.title}"` : ''} (format v${trace.header.version}, started ${trace.header.startedAt})`,
  ];
  const actors = new Map<string, TraceEntryOf<'actor'>>();
  const states = new Map<string, string>();
  const who = (actorId: string) => {
    const actor = actors.get(actorId);
    if (!actor) return actorId;
    return actor.label ? `${actor.label}/${actor.name}` : actor.name;
  };
  for (const entry of trace.entries) {
    const text = describe(entry, { actors, states, who, verbose: options.verbose ?? false });
    if (text !== undefined) lines.push(`${formatTime(entry.t)}  ${text}`);
  }
  return `${lines.join('\n')}\n`;
}

interface Memory {
  actors: Map<string, TraceEntryOf<'actor'>>;
  states: Map<string, string>;
  who: (actorId: string) => string;
  verbose: boolean;
}

function describe(entry: TraceEntry, memory: Memory): string | undefined {
  switch (entry.kind) {
    case 'actor':
      memory.actors.set(entry.actorId, entry);
      return entry.machine ? `◆ ${memory.who(entry.actorId)} starts (machine ${entry.machine})` : undefined;
    case 'machine':
      return undefined;
    case 'snapshot': {
      if (!memory.actors.get(entry.actorId)?.machine || entry.value === undefined) return undefined;
      const state = stateText(entry.value);
      if (state === '') return undefined;
      const before = memory.states.get(entry.actorId);
      memory.states.set(entry.actorId, state);
      if (before === state) return undefined;
      return `⚙ ${memory.who(entry.actorId)}: ${before ?? '∅'} → ${state}`;
    }
    case 'event':
      return memory.verbose ? `· ${memory.who(entry.actorId)} ← ${entry.event.type}` : undefined;
    case 'run':
      return describeRunEvent(entry.event);
  }
}

function describeRunEvent(event: TraceEntryOf<'run'>['event']): string | undefined {
  const field = (name: string): unknown => event[name];
  const agent = String(field('agent') ?? field('speaker') ?? 'chat');
  switch (event.type) {
    case 'chat.started':
      return `▶ chat starts${field('resumed') ? ' (resumed)' : ''}`;
    case 'speaker.selected':
      return `» next speaker: ${String(field('speaker'))} (round ${String(field('round'))}, by ${String(field('by'))})`;
    case 'speaker.fallback': {
      // Says why; the speaker.selected that follows (by: fallback) names the speaker.
      const error = field('error') as { message?: string } | undefined;
      return `⚠ speaker selection fell back (${String(field('reason'))}${error?.message ? `: ${error.message}` : ''})`;
    }
    case 'handoff':
      return `↪ ${String(field('from'))} hands off to ${String(field('to'))} (${String(field('via'))})`;
    case 'human.waiting':
      return `… waiting for ${String(field('speaker'))}`;
    case 'human.said':
      return `💬 ${String(field('speaker'))}: ${oneLine(String(field('text')))}`;
    case 'chat.finished': {
      const error = field('error') as { message?: string } | undefined;
      return `■ chat finished: ${String(field('reason'))} after ${String(field('rounds'))} round(s)${error?.message ? ` (${error.message})` : ''}`;
    }
    case 'speaker.rejected': {
      const eligible = field('eligible');
      return `✗ selector answered ${JSON.stringify(oneLine(String(field('answer'))))}: not one of ${Array.isArray(eligible) ? eligible.join(', ') : '?'}`;
    }
    case 'state.changed': {
      const change = field('change') as { key?: string; value?: unknown; deleted?: boolean } | undefined;
      if (!change?.key) return `◇ ${agent}: shared state changed`;
      return change.deleted
        ? `◇ shared state: ${change.key} deleted`
        : `◇ shared state: ${change.key} = ${oneLine(JSON.stringify(change.value ?? null))}`;
    }
    case 'turn.finished':
    case 'speaker.choice.requested':
    case 'speaker.chosen':
      return undefined;
    case 'run.started':
      return `▶ ${agent} starts`;
    case 'model.request': {
      const tools = field('tools');
      return `… ${agent} asks the model (step ${String(field('step'))}, tools: ${Array.isArray(tools) && tools.length > 0 ? tools.join(', ') : 'none'})`;
    }
    case 'message': {
      const message = field('message') as { role?: string; content?: string; toolCalls?: unknown[] } | undefined;
      if (message?.role !== 'assistant' || !message.content) return undefined;
      return `💬 ${agent}: ${oneLine(message.content)}`;
    }
    case 'tool.call': {
      const call = field('call') as { name?: string; arguments?: unknown } | undefined;
      return `🔧 ${agent} calls ${call?.name ?? '?'}(${oneLine(JSON.stringify(call?.arguments ?? null))})`;
    }
    case 'tool.result':
      return `${field('isError') ? '✗' : '✓'} ${String(field('toolName'))} → ${oneLine(String(field('content')))}`;
    case 'tool.refused':
      return `⛔ ${agent}: ${String(field('toolName') ?? (field('call') as { name?: string } | undefined)?.name ?? 'a call')} refused${field('reason') ? ` (${oneLine(String(field('reason')))})` : ''}`;
    case 'run.finished': {
      const error = field('error') as { message?: string } | undefined;
      return `■ ${agent} finished: ${String(field('reason'))}${error?.message ? ` (${error.message})` : ''}`;
    }
    case 'text.delta':
    case 'reasoning.delta':
    case 'usage':
    case 'model.response':
      return undefined;
    default:
      return `• ${agent}: ${event.type}`;
  }
}

/** `thinking`, or `running.search` for nested states. */
export function stateText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value !== 'object' || value === null) return String(value);
  return Object.entries(value)
    .map(([key, child]) => (child && typeof child === 'object' && Object.keys(child).length === 0 ? key : `${key}.${stateText(child)}`))
    .join(', ');
}

function formatTime(ms: number): string {
  return `${(ms / 1000).toFixed(3).padStart(8)}s`;
}

function oneLine(text: string, max = 120): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}
