import type { ErrorInfo, Usage } from '@agentchart/core';
import type { ReliableToolAttempt } from './reliableToolAttempt.js';
import type { ReliableToolErrorCode } from './reliableToolError.js';

/** The fields every reliable-tool event carries (exported so declaration files can name it). */
export interface Base {
  /** The reliable tool's name. */
  tool: string;
  runId: string;
}

/** Which of a reliable tool's two models. */
export type ReliableModelRole = 'runner' | 'validator';

/** The agent's tool call a reliable run executes. */
export interface ReliableRunCaller {
  runId: string;
  agent: string;
  callId: string;
}

/**
 * What a reliable tool reports on `events$`, for every run of the instance
 * (tell concurrent runs apart by `runId`). A run starts with
 * `reliable.run.started` and ends with one `reliable.run.finished`; each
 * attempt runs from `reliable.attempt.started` to `reliable.attempt.finished`.
 */
export type ReliableToolEvent =
  | (Base & {
      type: 'reliable.run.started';
      task: string;
      maxToolInvocations: number;
      /** The run's extra validation criteria, when it has some (dynamic validation). */
      validationPromptAddition?: string;
      /** The wrapped tool's name. */
      wrappedTool?: string;
      /** The agent's tool call this run executes, when an agent called the reliable tool. */
      caller?: ReliableRunCaller;
    })
  | (Base & { type: 'reliable.attempt.started'; attempt: number })
  /** The runner or the validator calls its model. */
  | (Base & { type: 'reliable.model.request'; attempt: number; role: ReliableModelRole; model: string; provider: string })
  /** The runner's or the validator's model replied (failures end the run: see `reliable.run.finished`). */
  | (Base & { type: 'reliable.model.response'; attempt: number; role: ReliableModelRole; usage: Usage })
  | (Base & {
      type: 'reliable.runner.call';
      attempt: number;
      callId: string;
      args: Record<string, unknown>;
      hypothesis: string;
    })
  | (Base & { type: 'reliable.tool.result'; attempt: number; isError: boolean; text: string; error?: ErrorInfo })
  | (Base & { type: 'reliable.validator.verdict'; attempt: number; valid: boolean; justification: string })
  | (Base & { type: 'reliable.attempt.finished'; attempt: number; record: ReliableToolAttempt })
  | (Base & { type: 'reliable.run.finished'; ok: boolean; attempts: number; code?: ReliableToolErrorCode; failureReason?: string });

/** The reliable-tool event of a given `type`. */
export type ReliableToolEventOf<T extends ReliableToolEvent['type']> = Extract<ReliableToolEvent, { type: T }>;
