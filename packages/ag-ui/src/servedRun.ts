import type { AgentRun, ChatEvent, GroupChatRun } from '@agentchart/actors';
import type { Message, RunEvent } from '@agentchart/core';
import type { Observable } from 'rxjs';
import type { RunWait } from './interrupts.js';

/** How a served run ended, in the terms of `RUN_FINISHED` and `RUN_ERROR`. */
export type ServedOutcome =
  | { kind: 'finished'; result: Record<string, unknown> }
  | { kind: 'cancelled' }
  | { kind: 'failed'; message: string; code: string };

/** An agent run or a group chat run behind one interface: its events, its waits, and a person's answers. */
export interface ServedRun {
  readonly kind: 'agent' | 'chat';
  readonly events$: Observable<RunEvent | ChatEvent>;
  readonly outcome: Promise<ServedOutcome>;
  state(): Record<string, unknown>;
  /** What the run waits for now (empty when it does not wait). */
  waits(): RunWait[];
  /** The transcript and turns, read while the run waits (a chat resumed from a store rebuilds its ids from them). */
  transcript(): { messages: Message[]; turns: { start: number; end: number }[] } | undefined;
  approve(callId: string): void;
  reject(callId: string, reason: string | undefined): void;
  say(speaker: string, text: string): void;
  select(speaker: string): void;
  abort(): void;
}

/** An agent run as a served run. */
export function servedAgentRun(run: AgentRun): ServedRun {
  return {
    kind: 'agent',
    events$: run.events$,
    outcome: run.result.then(
      (result): ServedOutcome => {
        if (result.stopReason === 'aborted') return { kind: 'cancelled' };
        if (result.stopReason === 'error')
          return { kind: 'failed', message: result.error?.message ?? 'The run failed.', code: result.error?.code ?? 'AG_UI_RUN_FAILED' };
        return { kind: 'finished', result: { stopReason: result.stopReason, text: result.text } };
      },
      (error: unknown): ServedOutcome => failed(error),
    ),
    state: () => ({ ...run.state.values() }),
    waits: () =>
      run.pendingApprovals.map((request) => ({
        kind: 'approval',
        callId: request.id,
        toolName: request.toolName,
        arguments: request.arguments,
        speaker: undefined,
      })),
    transcript: () => undefined,
    approve: (callId) => run.approve(callId),
    reject: (callId, reason) => run.reject(callId, reason),
    say: () => {},
    select: () => {},
    abort: () => run.abort(),
  };
}

/** A group chat run as a served run. */
export function servedChatRun(run: GroupChatRun): ServedRun {
  return {
    kind: 'chat',
    events$: run.events$,
    outcome: run.result.then(
      (result): ServedOutcome => {
        if (result.reason === 'aborted') return { kind: 'cancelled' };
        if (result.error !== undefined) return { kind: 'failed', message: result.error.message, code: result.error.code ?? 'AG_UI_RUN_FAILED' };
        return { kind: 'finished', result: { reason: result.reason, lastSpeaker: result.lastSpeaker ?? null, rounds: result.rounds } };
      },
      (error: unknown): ServedOutcome => failed(error),
    ),
    state: () => ({ ...run.state.values() }),
    waits: () => {
      const waiting = run.waiting();
      if (waiting === undefined) return [];
      if (waiting.kind === 'approval') {
        return waiting.requests.map((request) => ({
          kind: 'approval',
          callId: request.id,
          toolName: request.toolName,
          arguments: request.arguments,
          speaker: waiting.speaker,
        }));
      }
      if (waiting.kind === 'human') return [{ kind: 'turn', speaker: waiting.speaker }];
      return [{ kind: 'choice', eligible: waiting.eligible }];
    },
    transcript: () => {
      try {
        const snapshot = run.snapshot();
        return { messages: snapshot.messages, turns: snapshot.turns };
      } catch {
        return undefined;
      }
    },
    approve: (callId) => run.approve(callId),
    reject: (callId, reason) => run.reject(callId, reason),
    say: (speaker, text) => run.say(text, { as: speaker }),
    select: (speaker) => run.select(speaker),
    abort: () => run.abort(),
  };
}

function failed(error: unknown): ServedOutcome {
  const code = (error as { code?: unknown } | undefined)?.code;
  return {
    kind: 'failed',
    message: error instanceof Error ? error.message : String(error),
    code: typeof code === 'string' ? code : 'AG_UI_RUN_FAILED',
  };
}
