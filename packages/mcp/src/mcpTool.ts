import { type AnyTool, ToolError, type ToolAnnotations, type ToolContext, type ToolProgress, defineTool, toolResult } from '@agentchart/core';
import { type CallToolResult, ProtocolError, SdkError, SdkErrorCode } from '@modelcontextprotocol/client';
import { toolCallTraceContext } from '@agentchart/core/internal';
import { compileArgumentsSchema, compileOutputSchema } from './jsonSchemaArguments.js';
import { type McpToolDefinition, resultText, resultValue } from './mcpCallResult.js';
import { type McpConnection, messageOf } from './mcpConnection.js';
import { McpServerError } from './mcpServerError.js';
import type { McpApproval, McpApprovalContext, McpServerOptions } from './mcpServerOptions.js';
import { isApproval, limitsOf, timeoutOf } from './mcpServerOptions.js';

/** What an agentchart tool made from an MCP tool remembers of it. */
export interface McpToolOrigin {
  readonly serverName: string;
  /** The name on the server. */
  readonly mcpToolName: string;
  readonly annotations: ToolAnnotations;
  /** The tool's `_meta` as the server listed it. */
  readonly _meta?: Record<string, unknown> | undefined;
}

const origins = new WeakMap<AnyTool, McpToolOrigin>();

/**
 * Where a tool came from, when it is a server's tool (else `undefined`).
 *
 * @example
 * mcpToolOrigin(tool)?.annotations.readOnlyHint; // true for a read-only tool
 */
export function mcpToolOrigin(tool: AnyTool): McpToolOrigin | undefined {
  return origins.get(tool);
}

/**
 * An agentchart tool that calls a server's tool: its arguments are checked
 * against the server's JSON Schema before the call; the result's text,
 * structured content and images reach the model as text and the program as
 * the whole result (`_meta` kept); a result with `isError`, a timeout, a
 * crashed server and any other failure of the call become error results the
 * model reads. Aborting the run cancels the call on the server. A list change
 * the server announced before the result is applied to the run before the
 * result is handed over (`listChangesApplied`), so the next model request sees
 * it, as with `ctx.addTools`.
 */
export function mcpTool(
  definition: McpToolDefinition,
  modelName: string,
  connection: McpConnection,
  options: McpServerOptions,
  listChangesApplied: () => Promise<unknown> = () => Promise.resolve(),
): AnyTool {
  const server = options.name;
  const limits = limitsOf(options);
  const schemaInvalid = (problem: string, kind: 'input' | 'output') =>
    new McpServerError(
      'MCP_TOOL_SCHEMA_INVALID',
      `MCP server "${server}" sent a malformed ${kind} schema for tool "${definition.name}": ${problem}. ` +
        'Fix the server, or leave the tool out with mcpServer({ filter }).',
      { server, tool: definition.name },
    );
  const compiled = compileArgumentsSchema(definition.inputSchema, limits);
  if (!compiled.ok) throw schemaInvalid(compiled.problem, 'input');
  const output = definition.outputSchema === undefined ? undefined : compileOutputSchema(definition.outputSchema, limits);
  if (output !== undefined && !output.ok) throw schemaInvalid(output.problem, 'output');
  const checkOutput = output?.ok ? output.validate : undefined;
  const annotations: ToolAnnotations = { ...(definition.annotations ?? {}) };
  const origin: McpToolOrigin = { serverName: server, mcpToolName: definition.name, annotations, _meta: definition._meta };
  const approval = approvalFor(modelName, options);
  const oneCallAtATime = options.oneCallAtATime === true || (Array.isArray(options.oneCallAtATime) && options.oneCallAtATime.includes(modelName));
  const tool = defineTool({
    name: modelName,
    description: definition.description ?? definition.title ?? annotations.title ?? `Tool "${definition.name}" of MCP server "${server}".`,
    parameters: compiled.schema,
    oneCallAtATime,
    approval:
      typeof approval === 'function'
        ? (args, ctx) => approval(args, { ...ctx, serverName: server, mcpToolName: definition.name, annotations } satisfies McpApprovalContext)
        : approval === 'destructive'
          ? () => annotations.readOnlyHint !== true && annotations.destructiveHint !== false
          : approval,
    execute: async (args, ctx) => {
      const result = await callMcpTool(connection, definition.name, modelName, args, ctx, {
        timeoutMs: timeoutOf(options),
        maxResultChars: limits.maxResultChars,
        checkOutput,
      });
      await listChangesApplied();
      return result;
    },
  });
  const spec = { ...tool.spec, parameters: compiled.jsonSchema };
  const made: AnyTool = { ...tool, jsonSchema: compiled.jsonSchema, spec, annotations };
  origins.set(made, origin);
  return made;
}

function approvalFor(modelName: string, options: McpServerOptions): McpApproval {
  const setting = options.approval;
  if (setting === undefined) return 'never';
  if (isApproval(setting)) return setting;
  return setting[modelName] ?? 'never';
}

/** Why a call's own controller aborted it. */
class CallTimeout extends Error {}

/** How one call is bounded and checked. */
interface CallBounds {
  timeoutMs: number | null;
  maxResultChars: number;
  /** The tool's `outputSchema` check, when it has one. */
  checkOutput: ((value: unknown) => string | undefined) | undefined;
}

async function callMcpTool(
  connection: McpConnection,
  mcpName: string,
  modelName: string,
  args: Record<string, unknown>,
  ctx: ToolContext,
  bounds: CallBounds,
) {
  const { timeoutMs } = bounds;
  const server = connection.name;
  const controller = new AbortController();
  const onRunAbort = () => controller.abort(ctx.signal.reason);
  if (ctx.signal.aborted) onRunAbort();
  else ctx.signal.addEventListener('abort', onRunAbort, { once: true });
  let timer: ReturnType<typeof setTimeout> | undefined;
  const arm = () => {
    if (timeoutMs === null) return;
    clearTimeout(timer);
    timer = setTimeout(() => controller.abort(new CallTimeout()), timeoutMs);
  };
  arm();
  try {
    // Each progress notification restarts the timeout and becomes a `tool.progress` run event.
    const onProgress = (notification: { progress: number; total?: number | undefined; message?: string | undefined }) => {
      arm();
      reportProgress(ctx, notification, connection.redact);
    };
    // While a person answers the server's question the call's time does not run; the wait is a progress event.
    const waiting = (message: string) => {
      clearTimeout(timer);
      reportProgress(ctx, { progress: 0, message: `waiting for a person: ${message}` }, connection.redact);
      return arm;
    };
    const requestInput = ctx.requestInput?.bind(ctx);
    const call = {
      toolName: modelName,
      callId: ctx.callId,
      runId: ctx.runId,
      waiting,
      ask: requestInput,
      traceContext: () => toolCallTraceContext(ctx.runId, ctx.callId),
    };
    const result = await connection.callTool(mcpName, args, { signal: controller.signal, onProgress, call });
    const text = resultText(result, connection.redact, bounds.maxResultChars);
    if (result.isError !== true && bounds.checkOutput !== undefined) assertOutput(result, bounds.checkOutput, server, mcpName, modelName);
    if (result.isError === true) {
      throw new ToolError(text || `Tool "${modelName}" reported an error without a message.`, {
        server,
        tool: mcpName,
        ...(result._meta ? { _meta: result._meta } : {}),
      });
    }
    return toolResult(resultValue(result, bounds.maxResultChars), { text });
  } catch (error) {
    if (error instanceof ToolError) throw error;
    if (ctx.signal.aborted) throw error; // the run was aborted: the call was cancelled on the server
    throw callFailure(error, controller.signal.reason, connection, mcpName, modelName, timeoutMs);
  } finally {
    clearTimeout(timer);
    ctx.signal.removeEventListener('abort', onRunAbort);
  }
}

/** Hands an MCP progress notification to the run (`ctx.reportProgress`); a malformed one is dropped, never failing the call. */
function reportProgress(
  ctx: ToolContext,
  notification: { progress: number; total?: number | undefined; message?: string | undefined },
  redact: (text: string) => string,
): void {
  const report: ToolProgress = { progress: notification.progress };
  if (typeof notification.total === 'number') report.total = notification.total;
  if (typeof notification.message === 'string') report.message = redact(notification.message);
  try {
    ctx.reportProgress(report);
  } catch {
    // a server's progress that is not a finite number: the timeout was restarted, nothing to report
  }
}

/** The error result the model reads for a call that did not come back with a result. */
function callFailure(
  error: unknown,
  abortReason: unknown,
  connection: McpConnection,
  mcpName: string,
  modelName: string,
  timeoutMs: number | null,
): ToolError {
  const server = connection.name;
  const details = { server, tool: mcpName };
  if (abortReason instanceof CallTimeout) {
    return new ToolError(
      `The call of "${modelName}" timed out: MCP server "${server}" sent neither a result nor progress for ${timeoutMs} ms, so the call was cancelled. ` +
        'Its effect is unknown; try again, perhaps with less work per call.',
      { ...details, reason: 'timeout', timeoutMs },
    );
  }
  if (SdkError.isInstance(error) && error.code === SdkErrorCode.ConnectionClosed) {
    const overflow = connection.transportError?.match(/exceeded maximum size of (\d+) bytes/);
    if (overflow) {
      return new ToolError(
        `MCP server "${server}" answered the call of "${modelName}" with a message over ${overflow[1]} bytes (\`limits.maxMessageBytes\`), so it was not read and the connection was closed. ` +
          'Its effect is unknown; ask for less per call.',
        { ...details, reason: 'message-too-large', maxMessageBytes: Number(overflow[1]) },
      );
    }
    return new ToolError(
      `MCP server "${server}" closed the connection during the call of "${modelName}" (it may have crashed), so its effect is unknown. ` +
        'The next call starts a new connection.',
      { ...details, reason: 'connection-closed', stderr: connection.stderrTail.slice(-500) },
    );
  }
  if (error instanceof McpServerError) return new ToolError(error.message, { ...details, reason: error.code });
  if (ProtocolError.isInstance(error)) {
    // A JSON-RPC error the server answered with: its code and message are the server's own.
    return new ToolError(
      `MCP server "${server}" refused the call of "${modelName}" (JSON-RPC error ${error.code}): ${connection.redact(error.message)}`,
      {
        ...details,
        reason: 'server-error',
        mcpCode: error.code,
      },
    );
  }
  return new ToolError(`MCP server "${server}" failed the call of "${modelName}": ${connection.redact(messageOf(error))}`, {
    ...details,
    reason: 'call-failed',
  });
}

/** A result whose structured content does not match the tool's `outputSchema` is an error the model reads. */
function assertOutput(
  result: CallToolResult,
  check: (value: unknown) => string | undefined,
  server: string,
  mcpName: string,
  modelName: string,
): void {
  const problem = result.structuredContent === undefined ? 'it has an output schema but sent no structured content' : check(result.structuredContent);
  if (problem === undefined) return;
  throw new ToolError(
    `MCP server "${server}" answered "${modelName}" with a result that breaks the tool's output schema: ${problem.slice(0, 500)}.`,
    {
      server,
      tool: mcpName,
      reason: 'output-schema',
    },
  );
}
