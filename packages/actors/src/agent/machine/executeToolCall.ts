import {
  type AnyTool,
  type ErrorInfo,
  type FunctionMiddleware,
  type ToolCall,
  type ToolContext,
  type ToolInputAnswer,
  type ToolInputRequest,
  type SharedState,
  type ToolProgress,
  type ToolsToAdd,
  type ToolsToRemove,
  isToolError,
  redactText,
} from '@agentchart/core';
import {
  checkToolProgress,
  exportedName,
  formatArgumentIssues,
  toErrorInfo,
  toolOutputText,
  toolOutputValue,
  validateToolArgumentsNow,
} from '@agentchart/core/internal';
import type { ToolOutcome } from './toolOutcome.js';
import type { LiveToolSet, ToolListChange } from '../tools/liveTools.js';
import { invokeWithMiddleware } from './middleware.js';
import { askPerson } from '../../rootRun/inputRequests.js';

/** Everything a tool call of one batch runs against. */
export interface ToolCallEnvironment {
  /** The tools this batch may call: those offered to the model for it. */
  tools: ReadonlyMap<string, AnyTool>;
  /** The run's live list, which tools change through `ctx.addTools` / `ctx.removeTools`. */
  liveTools: LiveToolSet;
  middleware: readonly FunctionMiddleware[];
  /** Whether the model sees a thrown error's message (`true`) or only that the tool failed. */
  detailedErrors: boolean;
  agentName: string;
  runId: string;
  step: number;
  /** The calls' abort signal, asked for when a tool first reads `ctx.signal` (the batch makes it then). */
  signal(): AbortSignal;
  /** The shared state as this call sees it (its writes tagged with the call). */
  stateFor(call: ToolCall): SharedState;
  /** Told about every change a tool makes to the live list. */
  onToolsChanged(callId: string, change: ToolListChange): void;
  /** Told about every progress report of a running call (`ctx.reportProgress`), checked. */
  onProgress(callId: string, toolName: string, progress: ToolProgress): void;
}

/**
 * Runs one tool call and turns every outcome into something the model can
 * read: an unknown tool, invalid arguments and a thrown error each become an
 * error result, never an exception (a `ToolError`'s message reaches the
 * model as is). Valid calls go through the middleware chain, which may
 * answer for the tool or end the run.
 */
export async function executeToolCall(call: ToolCall, env: ToolCallEnvironment): Promise<ToolOutcome> {
  const tool = env.tools.get(call.name);
  if (tool === undefined) {
    const available = [...env.tools.keys()];
    return {
      content: `Unknown tool "${exportedName(call.name)}". ${available.length > 0 ? `Available tools: ${available.join(', ')}.` : 'No tools are available.'}`,
      isError: true,
    };
  }
  const toolContext = new RunToolContext(call, tool, env);
  try {
    // Synchronous checks and no middleware take no promise of their own: each saved tick counts on every call.
    const checked = validateToolArgumentsNow(tool, call, toolContext);
    const validation = checked instanceof Promise ? await checked : checked;
    if (!validation.ok) return { content: formatArgumentIssues(tool.name, validation.issues), isError: true };
    let result: unknown;
    let endsRun = false;
    try {
      if (env.middleware.length === 0) result = await tool.execute(validation.args, toolContext);
      else {
        const metadata = { callId: call.id, toolName: tool.name, agentName: env.agentName, runId: env.runId, step: env.step };
        ({ result, endsRun } = await invokeWithMiddleware(tool, validation.args, toolContext, metadata, env.middleware));
      }
    } finally {
      toolContext.settle();
    }
    const outcome: ToolOutcome = { content: toolOutputText(result), isError: false, value: toolOutputValue(result) };
    if (endsRun) outcome.endsRun = true;
    return outcome;
  } catch (error) {
    const info: ErrorInfo = toErrorInfo(error);
    if (isToolError(error)) return { content: error.message, isError: true, error: info };
    // The stack starts with the message: redacted like it.
    if (error instanceof Error && error.stack !== undefined) info.stack = redactText(error.stack);
    const content = env.detailedErrors ? `Tool "${tool.name}" failed: ${info.message}` : `Tool "${tool.name}" failed.`;
    return { content, isError: true, error: info };
  }
}

/** The idempotency key of a call: run-unique call ids make it unique, and it never changes. */
export function idempotencyKeyOf(runId: string, callId: string): string {
  return `${runId}:${callId}`;
}

/** What a run's tool context reads from its batch. */
type RunToolEnvironment = Pick<ToolCallEnvironment, 'liveTools' | 'agentName' | 'runId' | 'signal' | 'stateFor' | 'onToolsChanged' | 'onProgress'>;

/**
 * The context a tool receives inside a run: its `tools` reads the live list;
 * its shared-state view is made on first use (most tools never touch it).
 * A class, so a call's context costs one small object.
 */
export class RunToolContext implements ToolContext {
  readonly callId: string;
  readonly toolName: string;
  readonly agentName: string;
  readonly runId: string;
  readonly #call: ToolCall;
  readonly #env: RunToolEnvironment;
  #state: ToolContext['state'] | undefined;
  #settled = false;

  constructor(call: ToolCall, tool: AnyTool, env: RunToolEnvironment) {
    this.#call = call;
    this.#env = env;
    this.callId = call.id;
    this.toolName = tool.name;
    this.agentName = env.agentName;
    this.runId = env.runId;
  }

  /** Read from the batch when asked for: the batch makes its run's abort controller only for a tool that reads it. */
  get signal(): AbortSignal {
    return this.#env.signal();
  }

  get idempotencyKey(): string {
    return idempotencyKeyOf(this.runId, this.callId);
  }

  get state(): ToolContext['state'] {
    this.#state ??= this.#env.stateFor(this.#call);
    return this.#state;
  }

  get tools(): AnyTool[] {
    return this.#env.liveTools.list();
  }

  addTools(tools: ToolsToAdd): void {
    const change = this.#env.liveTools.add(tools);
    if (change.added.length === 0) return;
    this.#env.liveTools.record(this.callId, change);
    this.#env.onToolsChanged(this.callId, change);
  }

  removeTools(tools: ToolsToRemove): void {
    const change = this.#env.liveTools.remove(tools);
    if (change.removed.length === 0) return;
    this.#env.liveTools.record(this.callId, change);
    this.#env.onToolsChanged(this.callId, change);
  }

  reportProgress(report: ToolProgress): void {
    const checked = checkToolProgress(report, this.toolName);
    if (!this.#settled) this.#env.onProgress(this.callId, this.toolName, checked);
  }

  /** The question and its answer travel the progress channel (see `InputNotice`). */
  requestInput(request: ToolInputRequest): Promise<ToolInputAnswer> {
    const notify = (progress: ToolProgress) => this.#env.onProgress(this.callId, this.toolName, progress);
    return askPerson({ runId: this.runId, callId: this.callId, toolName: this.toolName }, request, this.signal, notify);
  }

  /** The call returned (or threw): later progress reports are dropped. */
  settle(): void {
    this.#settled = true;
  }
}
