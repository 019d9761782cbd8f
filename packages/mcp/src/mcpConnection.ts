import { registerSecrets } from '@agentchart/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { SSEClientTransport } from '@modelcontextprotocol/sdk/client/sse.js';
import { StdioClientTransport, getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  type CallToolResult,
  type Tool as McpToolDefinition,
  ProgressNotificationSchema,
  ToolListChangedNotificationSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { DEFAULT_MCP_CONNECT_TIMEOUT_MS, MCP_CLIENT_INFO, MCP_STDERR_TAIL_CHARS } from './constants.js';
import type { McpHttpOptions, McpServerOptions, McpStdioOptions } from './mcpServerOptions.js';
import { McpServerError } from './mcpServerError.js';
import { safeUrl, secretRedactor, urlSecrets } from './secretRedactor.js';

/** What one call needs beside the name and arguments. */
export interface McpCallOptions {
  signal: AbortSignal;
  /** Called on each progress notification of the call. */
  onProgress(progress: { progress: number; total?: number | undefined; message?: string | undefined }): void;
}

/**
 * One MCP server's session: connected on first use (stdio: the child process
 * is started then; HTTP: Streamable HTTP, falling back to SSE for servers
 * that refuse it), connected again on the next use after it closed (a
 * crashed server is restarted by the next call). Every text it lets out goes
 * through `redact`, which blanks the server's header and environment values.
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
  #nextProgressToken = 0;
  #client: Promise<Client> | undefined;
  #stderrTail = '';
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

  /** Calls `listener` on every `notifications/tools/list_changed`. */
  onToolsListChanged(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => void this.#listeners.delete(listener);
  }

  /** Every tool the server offers (all pages). */
  async listTools(): Promise<McpToolDefinition[]> {
    const client = await this.client();
    const tools: McpToolDefinition[] = [];
    let cursor: string | undefined;
    try {
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        tools.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor !== undefined);
    } catch (error) {
      throw new McpServerError(
        'MCP_LIST_FAILED',
        `MCP server "${this.name}" (${this.label}) did not list its tools: ${this.redact(messageOf(error))}`,
        {
          server: this.name,
        },
      );
    }
    return tools;
  }

  /** Calls a tool; rejects with the SDK's error (the caller turns it into a result the model reads). */
  async callTool(name: string, args: Record<string, unknown>, options: McpCallOptions): Promise<CallToolResult> {
    const client = await this.client(options.signal);
    // Our own progress token and handler (see `#open`): the SDK's `onprogress` forgets a call's handler as soon as
    // its result arrives, before a progress notification read in the same chunk is handled, so the last one was lost.
    const progressToken = `agentchart-${++this.#nextProgressToken}`;
    this.#progress.set(progressToken, options.onProgress);
    try {
      const result = await client.callTool({ name, arguments: args, _meta: { progressToken } }, undefined, {
        signal: options.signal,
        // The per-call timeout is ours (it can be none); the SDK's own is set as far away as a timer allows.
        timeout: 2_147_483_647,
      });
      return result as CallToolResult;
    } finally {
      this.#progress.delete(progressToken);
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
    if (pending === undefined) return;
    try {
      await (await pending).close();
    } catch {
      // a session that never opened, or one already gone: nothing to release
    }
  }

  async #connect(signal: AbortSignal | undefined): Promise<Client> {
    const options = this.#options;
    if ('command' in options && options.command !== undefined) return this.#open(this.#stdioTransport(options), signal);
    const http = options as McpHttpOptions;
    const url = new URL(http.url);
    const requestInit: RequestInit = http.headers ? { headers: { ...http.headers } } : {};
    const mode = http.transport ?? 'auto';
    if (mode === 'sse') return this.#open(new SSEClientTransport(url, { requestInit }), signal);
    try {
      return await this.#open(new StreamableHTTPClientTransport(url, { requestInit }), signal);
    } catch (error) {
      if (mode === 'streamable-http' || signal?.aborted) throw error;
      // Servers of the 2024-11-05 protocol answer a POST to their SSE endpoint with 4xx: try SSE.
      try {
        return await this.#open(new SSEClientTransport(url, { requestInit }), signal);
      } catch {
        throw error;
      }
    }
  }

  #stdioTransport(options: McpStdioOptions): Transport {
    const transport = new StdioClientTransport({
      command: options.command,
      args: [...(options.args ?? [])],
      env: { ...getDefaultEnvironment(), ...(options.env ?? {}) },
      ...(options.cwd !== undefined ? { cwd: options.cwd } : {}),
      stderr: 'pipe',
    });
    this.#stderrTail = '';
    transport.stderr?.on('data', (chunk: Buffer) => {
      this.#stderrTail = (this.#stderrTail + chunk.toString('utf8')).slice(-MCP_STDERR_TAIL_CHARS);
    });
    return transport;
  }

  async #open(transport: Transport, signal: AbortSignal | undefined): Promise<Client> {
    const client = new Client({ ...MCP_CLIENT_INFO }, { capabilities: {} });
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      for (const listener of this.#listeners) listener();
    });
    client.setNotificationHandler(ProgressNotificationSchema, (notification) => {
      const { progressToken, progress, total, message } = notification.params;
      this.#progress.get(String(progressToken))?.({ progress, total, message });
    });
    const connectTimeout = this.#options.connectTimeoutMs ?? DEFAULT_MCP_CONNECT_TIMEOUT_MS;
    try {
      await client.connect(transport, { timeout: connectTimeout, ...(signal ? { signal } : {}) });
    } catch (error) {
      await client.close().catch(() => {});
      const stderr = this.stderrTail.trim();
      throw new McpServerError(
        'MCP_CONNECTION_FAILED',
        `Could not connect to MCP server "${this.name}" (${this.label}): ${this.redact(messageOf(error))}` +
          (stderr ? ` Its stderr ends with: ${stderr.slice(-300)}` : '') +
          ' Check the command or URL, and that the server speaks MCP.',
        { server: this.name },
      );
    }
    const current = this.#client;
    client.onclose = () => {
      // The next use connects again (a crashed stdio server is started again).
      if (this.#client === current && !this.#closing) this.#client = undefined;
    };
    return client;
  }
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
