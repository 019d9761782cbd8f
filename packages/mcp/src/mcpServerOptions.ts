import { type ApprovalContext, ConfigurationError, type ToolAnnotations } from '@agentchart/core';
import { DEFAULT_MCP_TIMEOUT_MS } from './constants.js';

/** What an approval predicate of an MCP tool receives beside the arguments. */
export interface McpApprovalContext extends ApprovalContext {
  /** The server's name (`mcpServer({ name })`). */
  readonly serverName: string;
  /** The tool's name on the server (without the prefix). */
  readonly mcpToolName: string;
  /** What the server says about the tool (read-only, destructive, idempotent); `{}` when it says nothing. */
  readonly annotations: ToolAnnotations;
}

/** How calls of an MCP tool are approved. `destructive`: unless the server marks the tool read-only or not destructive. */
export type McpApproval =
  | 'never'
  | 'always'
  | 'destructive'
  | ((args: Record<string, unknown>, ctx: McpApprovalContext) => boolean | Promise<boolean>);

/** A tool as the server lists it, for `filter`. */
export interface McpToolDescription {
  /** The name on the server. */
  readonly name: string;
  /** The name the model sees (with the prefix). */
  readonly modelName: string;
  readonly description?: string | undefined;
  readonly annotations: ToolAnnotations;
}

/** What every kind of server takes. */
export interface McpCommonOptions {
  /** Names the server in errors and events (1 to 64 letters, digits, `_` or `-`). */
  name: string;
  /**
   * Put before each tool name with `__` (`github__create_issue`), so two
   * servers can offer one name. `true` uses the server's `name`. Rules,
   * approvals, `toolChoice` and middleware name tools with the prefix.
   */
  prefix?: string | true;
  /** Only these tools (names on the server or with the prefix), or those a function keeps. */
  filter?: readonly string[] | ((tool: McpToolDescription) => boolean);
  /**
   * Milliseconds a call may go without a result or a progress notification
   * (default `DEFAULT_MCP_TIMEOUT_MS`); each progress notification starts the
   * time again. `null`: no limit. A call that times out is cancelled and the
   * model gets an error result saying so.
   */
  timeoutMs?: number | null;
  /**
   * Which calls wait for a human decision: for every tool (`'never'`,
   * `'always'`, `'destructive'`, a predicate), or per tool by the name the
   * model sees (tools not listed: `never`).
   */
  approval?: McpApproval | Readonly<Record<string, McpApproval>>;
  /** Tools (names the model sees) that must be called alone in a reply; `true`: all of them. */
  oneCallAtATime?: boolean | readonly string[];
  /** Milliseconds to connect and initialize (default 30 s); `tools/list` waits as long as `timeoutMs`. */
  connectTimeoutMs?: number;
  /**
   * Which protocol line to speak. `auto` (default): the 2026-07-28 line when
   * the server offers it (a `server/discover` request on the same connection),
   * else the 2025-11-25 line and older (`initialize`). A version pins that line;
   * a server that does not speak it fails to connect.
   */
  protocol?: McpProtocol;
  /** Bounds on what the server sends (see `McpLimits`). */
  limits?: Partial<McpLimits>;
  /**
   * Answers a server's request for input from a person during a call (a form
   * elicitation: on 2026-07-28 an `input_required` result, after which the
   * call is sent again with the answer; on 2025-11-25 an `elicitation/create`
   * request). Ask the person whose run it is, and resolve with their answer.
   * While it waits the call's `timeoutMs` is paused. `'person'`: the person
   * of the call's run answers — the run emits `input.requested` with the
   * server's message and schema, `run.answer(id, answer)` answers (checked
   * against the schema), and a declined or cancelled answer is sent to the
   * server as such. Without it, the client declares no elicitation
   * capability and a server's request fails the call.
   */
  onInputRequest?: 'person' | ((request: McpInputRequest) => McpInputAnswer | Promise<McpInputAnswer>);
}

/** A server's question for a person, during one call. */
export interface McpInputRequest {
  readonly serverName: string;
  /** The tool the call is of, as the model sees it (`undefined` outside a call). */
  readonly toolName: string | undefined;
  /** The call's id and run (`undefined` outside a call). */
  readonly callId: string | undefined;
  readonly runId: string | undefined;
  /** What the server asks, redacted. */
  readonly message: string;
  /** The JSON Schema of the answer (flat: strings, numbers, booleans, enums). */
  readonly requestedSchema: Readonly<Record<string, unknown>>;
  /** Aborted when the call ends without an answer (the run aborted). */
  readonly signal: AbortSignal;
}

/** A person's answer to `McpInputRequest`: `accept` with the content, or `decline` / `cancel`. */
export type McpInputAnswer =
  | { action: 'accept'; content: Record<string, string | number | boolean | string[]> }
  | { action: 'decline' }
  | { action: 'cancel' };

/** The protocol lines `mcpServer({ protocol })` can pin. */
export type McpProtocol = 'auto' | '2026-07-28' | '2025-11-25';

/** Bounds on what an MCP server sends, so a hostile or broken server cannot exhaust the process. */
export interface McpLimits {
  /** Pages of `tools/list` read per listing (default 20); more is `MCP_LIST_FAILED`. */
  readonly maxPages: number;
  /** Tools per listing (default 1,000); more is `MCP_LIST_FAILED`. */
  readonly maxTools: number;
  /** Characters of one tool's input or output schema as JSON (default 262,144); a larger one is that tool's `MCP_TOOL_SCHEMA_INVALID`. */
  readonly maxSchemaChars: number;
  /** Nesting depth of one schema (default 32); deeper is that tool's `MCP_TOOL_SCHEMA_INVALID`. */
  readonly maxSchemaDepth: number;
  /** Characters of a result's text the model and the transcript keep (default 100,000); the rest is cut with a note. */
  readonly maxResultChars: number;
  /** Bytes of one message from a stdio server (default 16 MiB); a longer one fails the call with a clear error. */
  readonly maxMessageBytes: number;
}

/** The default `McpLimits`. */
export const DEFAULT_MCP_LIMITS: McpLimits = {
  maxPages: 20,
  maxTools: 1_000,
  maxSchemaChars: 262_144,
  maxSchemaDepth: 32,
  maxResultChars: 100_000,
  maxMessageBytes: 16 * 1024 * 1024,
};

/** The limits in effect. */
export function limitsOf(options: McpServerOptions): McpLimits {
  return { ...DEFAULT_MCP_LIMITS, ...(options.limits ?? {}) };
}

/** A server started as a child process, spoken to over its stdin and stdout. */
export interface McpStdioOptions extends McpCommonOptions {
  command: string;
  args?: readonly string[];
  /** Added to a small safe set of the parent's variables (PATH, HOME, ...); the values are treated as secrets. */
  env?: Readonly<Record<string, string>>;
  cwd?: string;
}

/** A server reached over Streamable HTTP (or, for old servers, HTTP with SSE). */
export interface McpHttpOptions extends McpCommonOptions {
  url: string | URL;
  /** Sent with every request; the values are treated as secrets. */
  headers?: Readonly<Record<string, string>>;
  /** `auto` (default): Streamable HTTP, then SSE when the server refuses it. */
  transport?: 'auto' | 'streamable-http' | 'sse';
}

export type McpServerOptions = McpStdioOptions | McpHttpOptions;

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** Checks the options a user gave (a clear `ConfigurationError` for each mistake). */
export function checkMcpServerOptions(options: McpServerOptions): void {
  if (typeof options !== 'object' || options === null) throw new ConfigurationError('mcpServer(options) takes { name, command } or { name, url }.');
  const label = `mcpServer({ name: ${JSON.stringify(options.name)} })`;
  if (typeof options.name !== 'string' || !NAME.test(options.name)) {
    throw new ConfigurationError(`${label}: the name must be 1 to 64 letters, digits, "_" or "-".`, { name: options.name });
  }
  const hasCommand = 'command' in options && options.command !== undefined;
  const hasUrl = 'url' in options && options.url !== undefined;
  if (hasCommand === hasUrl) {
    throw new ConfigurationError(
      `${label} needs either \`command\` (a server started over stdio) or \`url\` (Streamable HTTP), not ${hasCommand ? 'both' : 'neither'}.`,
    );
  }
  if (hasCommand && typeof (options as McpStdioOptions).command !== 'string') throw new ConfigurationError(`${label}: \`command\` must be a string.`);
  if (hasUrl) {
    let url: URL | undefined;
    try {
      url = new URL((options as McpHttpOptions).url);
    } catch {
      url = undefined;
    }
    if (url === undefined || !['http:', 'https:'].includes(url.protocol))
      throw new ConfigurationError(`${label}: \`url\` must be an absolute http(s) URL.`);
  }
  if (options.prefix !== undefined && options.prefix !== true && (typeof options.prefix !== 'string' || !NAME.test(options.prefix))) {
    throw new ConfigurationError(`${label}: \`prefix\` must be true or 1 to 64 letters, digits, "_" or "-".`, { prefix: options.prefix });
  }
  const timeout = options.timeoutMs;
  if (timeout !== undefined && timeout !== null && !(typeof timeout === 'number' && timeout > 0 && timeout <= 2_147_483_647)) {
    throw new ConfigurationError(`${label}: \`timeoutMs\` must be a positive number of milliseconds (at most 2147483647), or null for no limit.`, {
      timeoutMs: timeout,
    });
  }
  if (options.protocol !== undefined && !['auto', '2026-07-28', '2025-11-25'].includes(options.protocol)) {
    throw new ConfigurationError(`${label}: \`protocol\` must be 'auto', '2026-07-28' or '2025-11-25'.`, { protocol: options.protocol });
  }
  for (const [key, value] of Object.entries(options.limits ?? {})) {
    if (!(key in DEFAULT_MCP_LIMITS) || !(typeof value === 'number' && Number.isInteger(value) && value > 0)) {
      throw new ConfigurationError(
        `${label}: \`limits.${key}\` must be one of ${Object.keys(DEFAULT_MCP_LIMITS).join(', ')}, a positive whole number.`,
        {
          limit: key,
        },
      );
    }
  }
  if (options.onInputRequest !== undefined && options.onInputRequest !== 'person' && typeof options.onInputRequest !== 'function') {
    throw new ConfigurationError(`${label}: \`onInputRequest\` must be 'person' (the run's person answers) or a function (request) => answer.`);
  }
  const filter = options.filter;
  if (filter !== undefined && typeof filter !== 'function' && !(Array.isArray(filter) && filter.every((name) => typeof name === 'string'))) {
    throw new ConfigurationError(`${label}: \`filter\` must be a list of tool names or a function (tool) => boolean.`);
  }
  const approval = options.approval;
  if (approval !== undefined && !isApproval(approval)) {
    if (typeof approval !== 'object' || approval === null || !Object.values(approval).every(isApproval)) {
      throw new ConfigurationError(`${label}: \`approval\` must be 'never', 'always', 'destructive', a function, or such values by tool name.`);
    }
  }
}

export function isApproval(value: unknown): value is McpApproval {
  return value === 'never' || value === 'always' || value === 'destructive' || typeof value === 'function';
}

/** The per-call timeout in effect (`null`: none). */
export function timeoutOf(options: McpServerOptions): number | null {
  return options.timeoutMs === undefined ? DEFAULT_MCP_TIMEOUT_MS : options.timeoutMs;
}
