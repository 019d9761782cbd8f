import { type ToolInputAnswer, type ToolInputRequest, registerSecrets } from '@agentchart/core';
import {
  type CallToolResult,
  Client,
  type McpSubscription,
  type PriorDiscovery,
  SSEClientTransport,
  SdkError,
  SdkErrorCode,
  StreamableHTTPClientTransport,
  type Transport,
} from '@modelcontextprotocol/client';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/client/stdio';
import { z } from 'zod';
import { DEFAULT_MCP_CONNECT_TIMEOUT_MS, MCP_CLIENT_INFO, MCP_STDERR_TAIL_CHARS, MCP_STDIO_PROBE_TIMEOUT_MS } from './constants.js';
import type { McpHttpOptions, McpServerOptions, McpStdioOptions } from './mcpServerOptions.js';
import { limitsOf, timeoutOf } from './mcpServerOptions.js';
import { McpServerError } from './mcpServerError.js';
import { safeUrl, secretRedactor, urlSecrets } from './secretRedactor.js';
import { traceMeta } from './traceMeta.js';
import { compileOutputSchema } from './jsonSchemaArguments.js';

/** What one call needs beside the name and arguments. */
export interface McpCallOptions {
  signal: AbortSignal;
  /** Called on each progress notification of the call. */
  onProgress(progress: { progress: number; total?: number | undefined; message?: string | undefined }): void;
  /** The call, for a server's input request during it; `waiting` pauses the call's timeout until the returned function is called. */
  call?: {
    toolName: string;
    callId: string;
    runId: string;
    waiting(message: string): () => void;
    /** Asks the run's person (`ctx.requestInput`), for `onInputRequest: 'person'`; absent outside a run. */
    ask?: ((request: ToolInputRequest) => Promise<ToolInputAnswer>) | undefined;
    /** The W3C trace context of the call's own span (`execute_tool`), when a tracer recorded one (read when the request is sent). */
    traceContext?: () => Readonly<Record<string, string>> | undefined;
  };
}

/** The call an input request arrives during. */
type CallScope = NonNullable<McpCallOptions['call']> & { signal: AbortSignal };

/** The protocol line a connection speaks: `modern` is 2026-07-28, `legacy` 2025-11-25 and older. */
export type McpEra = 'modern' | 'legacy';

/**
 * One page of `tools/list` as the server sent it: each tool is checked on
 * its own later, so one malformed tool does not fail the whole list.
 */
const LooseToolsPage = z.looseObject({ tools: z.array(z.unknown()), nextCursor: z.string().optional() });

/**
 * The SDK's stdio transport, subclassed so that version negotiation probes on
 * the server's own process (the SDK starts a second, throw-away process for
 * its base class).
 */
class InPlaceStdioTransport extends StdioClientTransport {}

/**
 * One MCP server's connection, through the v2 client SDK: connected on first
 * use (stdio: the child process is started then; HTTP: Streamable HTTP,
 * falling back to SSE for servers that refuse it), connected again on the
 * next use after it closed (a crashed server is restarted by the next call).
 * `protocol: 'auto'` asks the server for the 2026-07-28 line
 * (`server/discover`) and speaks 2025-11-25 (`initialize`) with a server
 * that does not offer it; the line found is kept for reconnections. Every
 * text it lets out goes through `redact`, which blanks the server's header
 * and environment values.
 *
 * @example
 * const connection = new McpConnection({ name: 'files', command: 'node', args: ['server.js'] });
 * const tools = await connection.listTools();
 */
export class McpConnection {
  readonly name: string;
  readonly redact: (text: string) => string;
  readonly #options: McpServerOptions;
  readonly #listeners = new Set<() => void>();
  /** The progress listener of each call in flight, by the progress token it was sent with. */
  readonly #progress = new Map<string, McpCallOptions['onProgress']>();
  /** The calls in flight, by their signal: the SDK hands a 2026-07-28 input request the signal of the call it belongs to. */
  readonly #calls = new Map<AbortSignal, CallScope>();
  #nextProgressToken = 0;
  #client: Promise<Client> | undefined;
  #subscription: McpSubscription | undefined;
  /** The line the server spoke last time, so a reconnection does not ask again. */
  #prior: PriorDiscovery | undefined;
  #stderrTail = '';
  #transportError: string | undefined;
  #closing = false;

  constructor(options: McpServerOptions) {
    this.name = options.name;
    this.#options = options;
    const secrets: string[] = [];
    if ('env' in options && options.env) secrets.push(...Object.values(options.env));
    if ('headers' in options && options.headers) {
      // The whole value, and the credential of `<scheme> <credential>` on its own (a server may echo just the token).
      for (const value of Object.values(options.headers)) secrets.push(value, ...(/^[A-Za-z-]+\s+(\S+)$/.exec(value)?.slice(1) ?? []));
    }
    if ('url' in options && options.url !== undefined) secrets.push(...urlSecrets(new URL(options.url)));
    this.redact = secretRedactor(secrets);
    // Traces, the live view and the Stately bridge redact them too (core's process-wide registry).
    registerSecrets(secrets);
  }

  /** Where the server is, as errors show it (no credentials). */
  get label(): string {
    const options = this.#options;
    return 'url' in options && options.url !== undefined ? safeUrl(new URL(options.url)) : `${(options as McpStdioOptions).command} (stdio)`;
  }

  /** The last characters the server wrote to stderr (stdio), redacted. */
  get stderrTail(): string {
    return this.redact(this.#stderrTail);
  }

  /** The last transport failure (a message over `limits.maxMessageBytes`, a broken pipe), redacted. */
  get transportError(): string | undefined {
    return this.#transportError === undefined ? undefined : this.redact(this.#transportError);
  }

  /** The line the connection speaks, once connected. */
  get era(): McpEra | undefined {
    return this.#prior?.kind;
  }

  /** Calls `listener` on every `notifications/tools/list_changed` (sent on `subscriptions/listen` on the 2026-07-28 line). */
  onToolsListChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /**
   * Every tool the server offers, as sent (each checked later on its own):
   * at most `limits.maxPages` pages and `limits.maxTools` tools, each page
   * within `timeoutMs`.
   */
  async listTools(signal?: AbortSignal): Promise<unknown[]> {
    const client = await this.client(signal);
    const limits = limitsOf(this.#options);
    const timeout = timeoutOf(this.#options) ?? 2_147_483_647;
    const tools: unknown[] = [];
    const fail = (why: string, details: Record<string, unknown> = {}) =>
      new McpServerError('MCP_LIST_FAILED', `MCP server "${this.name}" (${this.label}) did not list its tools: ${why}`, {
        server: this.name,
        ...details,
      });
    let cursor: string | undefined;
    let pages = 0;
    do {
      if (pages === limits.maxPages) {
        throw fail(`it sent more than ${limits.maxPages} pages (\`limits.maxPages\`); a server whose \`nextCursor\` never ends is broken.`, {
          pages,
        });
      }
      let page: z.infer<typeof LooseToolsPage>;
      try {
        page = await client.request({ method: 'tools/list', params: cursor === undefined ? {} : { cursor } }, LooseToolsPage, {
          timeout,
          ...(signal ? { signal } : {}),
        });
      } catch (error) {
        if (SdkError.isInstance(error) && error.code === SdkErrorCode.RequestTimeout) {
          throw fail(`no answer within ${timeout} ms (\`timeoutMs\`).`, { reason: 'timeout' });
        }
        throw fail(this.redact(messageOf(error)));
      }
      pages += 1;
      tools.push(...page.tools);
      if (tools.length > limits.maxTools) throw fail(`it offers more than ${limits.maxTools} tools (\`limits.maxTools\`).`, { tools: tools.length });
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return tools;
  }

  /** Calls a tool; rejects with the SDK's error (the caller turns it into a result the model reads). */
  async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult> {
    const client = await this.client(options.signal);
    // Our own progress token and handler (see `#open`), so that a progress notification read in the same chunk
    // as the result still reaches the call.
    const progressToken = `agentchart-${++this.#nextProgressToken}`;
    this.#progress.set(progressToken, options.onProgress);
    try {
      // The call's own span, else the OpenTelemetry context active here (a span the application made active).
      const _meta = { ...(options.call?.traceContext?.() ?? (await traceMeta())), progressToken };
      const send = () =>
        client.callTool(
          { name, arguments: args, _meta },
          {
            signal: options.signal,
            // The per-call timeout is ours (it can be none); the SDK's own is set as far away as a timer allows.
            timeout: 2_147_483_647,
          },
        );
      if (options.call !== undefined) this.#calls.set(options.signal, { ...options.call, signal: options.signal });
      return await send();
    } finally {
      this.#progress.delete(progressToken);
      this.#calls.delete(options.signal);
    }
  }

  /** The connected client, connecting first when there is none. */
  client(signal?: AbortSignal): Promise<Client> {
    this.#closing = false;
    this.#client ??= this.#connect(signal).catch((error: unknown) => {
      this.#client = undefined;
      throw error;
    });
    return this.#client;
  }

  async close(): Promise<void> {
    const pending = this.#client;
    this.#client = undefined;
    this.#closing = true;
    const subscription = this.#subscription;
    this.#subscription = undefined;
    if (pending === undefined) return;
    try {
      await subscription?.close();
      await (await pending).close();
    } catch {
      // a session that never opened, or one already gone: nothing to release
    }
  }

  /**
   * A server's question put to the person of the call's run (`input.requested`,
   * answered with `run.answer`), the answer checked against the server's
   * schema. Declined without asking when the call is not in a run (nobody
   * could answer) or the schema does not compile.
   */
  async #askPerson(call: CallScope | undefined, message: string, requestedSchema: unknown): Promise<ToolInputAnswer> {
    if (call?.ask === undefined) return { action: 'decline' };
    const schema = typeof requestedSchema === 'object' && requestedSchema !== null ? (requestedSchema as Record<string, unknown>) : {};
    const compiled = compileOutputSchema({ type: 'object', ...schema }, limitsOf(this.#options));
    if (!compiled.ok) return { action: 'decline' };
    const check = (content: Record<string, unknown>) =>
      compiled.validate(content) ?? (isAnswerContent(content) ? undefined : 'each value must be a string, a number, a boolean or a list of strings');
    return call.ask({ message: this.redact(message), requestedSchema: schema, check });
  }

  async #connect(signal: AbortSignal | undefined): Promise<Client> {
    const options = this.#options;
    if ('command' in options && options.command !== undefined) {
      try {
        return await this.#open(() => this.#stdioTransport(options), signal);
      } catch (error) {
        // A 2025-era server that exits on the `server/discover` probe (some SDKs end on any request before
        // `initialize`) is started again and spoken to with `initialize`.
        if (!(error instanceof ProbeClosed)) throw error;
        this.#prior = { kind: 'legacy' };
        return this.#open(() => this.#stdioTransport(options), signal);
      }
    }
    const http = options as McpHttpOptions;
    const url = new URL(http.url);
    const requestInit: RequestInit = http.headers ? { headers: { ...http.headers } } : {};
    const mode = http.transport ?? 'auto';
    if (mode === 'sse') return this.#open(() => new SSEClientTransport(url, { requestInit }), signal, 'legacy');
    try {
      return await this.#open(() => new StreamableHTTPClientTransport(url, { requestInit }), signal);
    } catch (error) {
      if (mode === 'streamable-http' || signal?.aborted || options.protocol === '2026-07-28') throw error;
      // Servers of the 2024-11-05 protocol answer a POST to their SSE endpoint with 4xx: try SSE.
      try {
        return await this.#open(() => new SSEClientTransport(url, { requestInit }), signal, 'legacy');
      } catch {
        throw error;
      }
    }
  }

  #stdioTransport(options: McpStdioOptions): Transport {
    const transport = new InPlaceStdioTransport({
      command: options.command,
      args: [...(options.args ?? [])],
      env: { ...getDefaultEnvironment(), ...(options.env ?? {}) },
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      stderr: 'pipe',
      maxBufferSize: limitsOf(options).maxMessageBytes,
    });
    this.#stderrTail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.#stderrTail = (this.#stderrTail + chunk.toString('utf8')).slice(-MCP_STDERR_TAIL_CHARS);
    });
    return transport;
  }

  async #open(makeTransport: () => Transport, signal: AbortSignal | undefined, forced?: 'legacy'): Promise<Client> {
    const options = this.#options;
    const protocol = options.protocol ?? 'auto';
    const stdio = 'command' in options && options.command !== undefined;
    const connectTimeout = options.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
    const onInputRequest = options.onInputRequest;
    const client = new Client(
      { ...MCP_CLIENT_INFO },
      {
        capabilities: onInputRequest === undefined ? {} : { elicitation: { form: {} } },
        versionNegotiation: {
          mode: forced ?? (protocol === 'auto' ? 'auto' : protocol === '2025-11-25' ? 'legacy' : { pin: protocol }),
          probe: { timeoutMs: stdio ? Math.min(connectTimeout, MCP_STDIO_PROBE_TIMEOUT_MS) : connectTimeout },
        },
      },
    );
    client.setNotificationHandler('notifications/tools/list_changed', () => {
      for (const listener of this.#listeners) listener();
    });
    client.setNotificationHandler('notifications/progress', (notification) => {
      const { progressToken, progress, total, message } = notification.params;
      this.#progress.get(String(progressToken))?.({ progress, total, message });
    });
    if (onInputRequest !== undefined) {
      client.setRequestHandler('elicitation/create', async (request, ctx) => {
        const params = request.params as { mode?: string; message?: unknown; requestedSchema?: unknown };
        if (params.mode === 'url') return { action: 'decline' };
        // A 2025-era server's request is not tied to a call by the SDK: it is the call's when only one is in flight.
        const call = this.#calls.get(ctx.mcpReq.signal) ?? (this.#calls.size === 1 ? [...this.#calls.values()][0] : undefined);
        const resume = call?.waiting(this.redact(String(params.message ?? '')));
        try {
          if (onInputRequest === 'person') return checkedAnswer(await this.#askPerson(call, String(params.message ?? ''), params.requestedSchema));
          const answer = await onInputRequest({
            serverName: this.name,
            toolName: call?.toolName,
            callId: call?.callId,
            runId: call?.runId,
            message: this.redact(String(params.message ?? '')),
            requestedSchema:
              typeof params.requestedSchema === 'object' && params.requestedSchema !== null
                ? (params.requestedSchema as Record<string, unknown>)
                : {},
            signal: call?.signal ?? AbortSignal.abort(),
          });
          return checkedAnswer(answer);
        } finally {
          resume?.();
        }
      });
    }
    client.onerror = (error) => {
      this.#transportError = messageOf(error);
    };
    this.#transportError = undefined;
    const prior = forced === undefined && protocol === 'auto' ? this.#prior : undefined;
    try {
      await client.connect(makeTransport(), { timeout: connectTimeout, ...(signal ? { signal } : {}), ...(prior ? { prior } : {}) });
    } catch (error) {
      await client.close().catch(() => {});
      if (stdio && protocol === 'auto' && prior === undefined && /closed during the server\/discover probe/.test(messageOf(error))) {
        throw new ProbeClosed();
      }
      const stderr = this.stderrTail.trim();
      throw new McpServerError(
        'MCP_CONNECTION_FAILED',
        `Could not connect to MCP server "${this.name}" (${this.label}): ${this.redact(messageOf(error))}` +
          (stderr ? ` Its stderr ends with: ${stderr.slice(-300)}` : '') +
          (protocol === 'auto' ? ' Check the command or URL, and that the server speaks MCP.' : ` Check that the server speaks MCP ${protocol}.`),
        { server: this.name, protocol },
      );
    }
    const discover = client.getDiscoverResult();
    this.#prior = client.getProtocolEra() === 'modern' && discover !== undefined ? { kind: 'modern', discover } : { kind: 'legacy' };
    if (this.#prior.kind === 'modern' && client.getServerCapabilities()?.tools?.listChanged === true) {
      // The 2026-07-28 line sends list changes only on a subscription; without one the list is fetched on each load as before.
      this.#subscription = await client.listen({ toolsListChanged: true }, { timeout: connectTimeout }).catch(() => undefined);
    }
    const current = this.#client;
    client.onclose = () => {
      // The next use connects again (a crashed stdio server is started again).
      if (this.#client === current && !this.#closing) this.#client = undefined;
    };
    return client;
  }
}

/** A person's answer as the protocol carries it (anything else declines). */
function checkedAnswer(answer: unknown): { action: 'accept'; content: Record<string, AnswerValue> } | { action: 'decline' | 'cancel' } {
  if (typeof answer !== 'object' || answer === null) return { action: 'decline' };
  const { action, content } = answer as { action?: unknown; content?: unknown };
  if (action === 'cancel') return { action: 'cancel' };
  if (action !== 'accept' || typeof content !== 'object' || content === null || Array.isArray(content)) return { action: 'decline' };
  const values = Object.entries(content);
  if (!values.every(([, value]) => isAnswerValue(value))) return { action: 'decline' };
  return { action: 'accept', content: Object.fromEntries(values) as Record<string, AnswerValue> };
}

/** What a form answer's field may hold. */
type AnswerValue = string | number | boolean | string[];

function isAnswerContent(content: Record<string, unknown>): boolean {
  return Object.values(content).every(isAnswerValue);
}

function isAnswerValue(value: unknown): value is AnswerValue {
  return (
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value)) ||
    (Array.isArray(value) && value.every((item) => typeof item === 'string'))
  );
}

/** The stdio server closed while it was asked for its protocol line. */
class ProbeClosed extends Error {}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
