import type { ReliableRunCaller } from './reliableToolEvents.js';
import type { ErrorInfo, Message, SharedState, Usage } from '@agentchart/core';
import type { ModelReply } from './collectModelReply.js';
import type { ReliableToolAttempt } from './reliableToolAttempt.js';
import type { ReliableToolErrorCode } from './reliableToolError.js';
import type { ReliableToolRuntime } from './reliableToolRuntime.js';
import type { RunnerCall } from './runnerCall.js';
import type { ValidationResult } from './validationResult.js';

/** The outcome of one invocation of the wrapped tool. */
export type ToolRun = { ok: true; value: unknown; text: string } | { ok: false; error: ErrorInfo };

/** The attempt in progress. */
export interface AttemptDraft {
  attempt: number;
  reply?: ModelReply;
  runnerCall?: RunnerCall;
  /** Why the runner's reply had no usable call. */
  noCallReason?: string;
  toolRun?: ToolRun;
  validation?: ValidationResult;
}

/** The reliable-run machine's context. Everything but `runtime` is plain data. */
export interface ReliableRunContext {
  runtime: ReliableToolRuntime;
  runId: string;
  /** The agent's tool call this run executes, when an agent called the reliable tool. */
  caller: ReliableRunCaller | undefined;
  task: string;
  validationPromptAddition: string | undefined;
  /** Prepended messages and ground-truth messages, shown to both models. */
  preamble: Message[];
  /** The runner's conversation after the preamble: the task, then each failed attempt. */
  transcript: Message[];
  attempts: ReliableToolAttempt[];
  current: AttemptDraft;
  usage: Usage;
  failure: { code: ReliableToolErrorCode; reason: string; error?: ErrorInfo } | undefined;
  /** The shared state the wrapped tool sees: the caller's, or the run's own. */
  state: SharedState;
}
