import type { ToolSource } from '@agentchart/actors';
import { type AnyTool, ConfigurationError } from '@agentchart/core';
import type { McpToolDefinition } from './mcpCallResult.js';
import { McpConnection } from './mcpConnection.js';
import { type McpServerOptions, type McpToolDescription, checkMcpServerOptions } from './mcpServerOptions.js';
import { McpServerError } from './mcpServerError.js';
import { mcpTool } from './mcpTool.js';
import { modelToolName } from './mcpToolName.js';

/** An MCP server as a tool source: give it to `createAgent({ toolSources })`. */
export interface McpServer extends ToolSource {
  /** The tools the model sees (connects first; cached until the server says its list changed). */
  loadTools(signal?: AbortSignal): Promise<readonly AnyTool[]>;
}

/**
 * An MCP server's tools for agents: over stdio (`command`, `args`, `env`,
 * `cwd`) or Streamable HTTP (`url`, `headers`; SSE for old servers). Nothing
 * happens until an agent's run first needs the tools; the list is then
 * cached, and `notifications/tools/list_changed` makes the next load fetch
 * it again (running runs see the change at their next model request).
 * Header and environment values never reach the model, events or errors.
 *
 * @example
 * const github = mcpServer({ name: 'github', url: 'http://127.0.0.1:3000/mcp', headers: { authorization: `Bearer ${token}` }, prefix: true });
 * const files = mcpServer({ name: 'files', command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '.'], approval: 'destructive' });
 * const agent = createAgent({ name: 'dev', model, toolSources: [github, files], toolRules: [rules.init('github__search_issues')] });
 * try { await agent.run('Triage the new issues.').result; } finally { await agent.close(); }
 */
export function mcpServer(options: McpServerOptions): McpServer {
  checkMcpServerOptions(options);
  const frozen = { ...options } as McpServerOptions;
  const connection = new McpConnection(frozen);
  const prefix = options.prefix === true ? options.name : options.prefix;
  const listeners = new Set<() => void | Promise<void>>();
  /** The agents' handling of the last list change (a call that changed the list waits for it). */
  let applying: Promise<unknown> = Promise.resolve();
  let cached: Promise<readonly AnyTool[]> | undefined;
  let byDefinition = new Map<string, { json: string; tool: AnyTool }>();

  connection.onToolsListChanged(() => {
    cached = undefined;
    applying = Promise.allSettled([...listeners].map((listener) => listener()));
  });

  /** Keeps the tool object of a definition that did not change, so lists compare by identity. */
  const toolsFrom = (listed: readonly unknown[]): AnyTool[] => {
    const next = new Map<string, { json: string; tool: AnyTool }>();
    const tools: AnyTool[] = [];
    const names = new Map<string, string>();
    const definitions = listed.map((entry, index) => toolDefinition(entry, index, options.name));
    for (const definition of definitions) {
      const modelName = modelToolName(definition.name, prefix, options.name);
      const description: McpToolDescription = {
        name: definition.name,
        modelName,
        description: definition.description,
        annotations: { ...(definition.annotations ?? {}) },
      };
      if (!kept(options.filter, description)) continue;
      const clash = names.get(modelName);
      if (clash !== undefined) {
        throw new McpServerError(
          'MCP_TOOL_NAME_INVALID',
          `MCP server "${options.name}" offers tools "${clash}" and "${definition.name}", which both become "${modelName}" for the model: leave one out with a filter.`,
          { server: options.name, tools: [clash, definition.name] },
        );
      }
      names.set(modelName, definition.name);
      const json = JSON.stringify(definition);
      const previous = byDefinition.get(modelName);
      const tool = previous?.json === json ? previous.tool : mcpTool(definition, modelName, connection, frozen, () => applying);
      next.set(modelName, { json, tool });
      tools.push(tool);
    }
    byDefinition = next;
    if (prefix !== undefined) assertPrefixedNames(options, definitions, prefix);
    return tools;
  };

  const server: McpServer = {
    name: options.name,
    loadTools: (signal) => {
      cached ??= connection.listTools(signal).then(toolsFrom);
      const pending = cached;
      pending.catch(() => {
        if (cached === pending) cached = undefined; // a failed load is tried again next time
      });
      return pending;
    },
    onToolsChanged: (listener) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    close: async () => {
      cached = undefined;
      await connection.close();
    },
  };
  return server;
}

/**
 * A listed tool, checked on its own: a name is required (else the listing
 * fails, as the tool cannot be named in a filter); a schema that is not an
 * object is that tool's `MCP_TOOL_SCHEMA_INVALID`, raised only if the filter
 * keeps it.
 */
function toolDefinition(entry: unknown, index: number, server: string): McpToolDefinition {
  if (typeof entry !== 'object' || entry === null || typeof (entry as { name?: unknown }).name !== 'string') {
    throw new McpServerError('MCP_LIST_FAILED', `MCP server "${server}" listed a tool without a name (entry ${index} of its list): fix the server.`, {
      server,
      index,
    });
  }
  const definition = entry as McpToolDefinition;
  const annotations = definition.annotations;
  return {
    ...definition,
    description: typeof definition.description === 'string' ? definition.description : undefined,
    annotations: typeof annotations === 'object' && annotations !== null && !Array.isArray(annotations) ? annotations : {},
  } as McpToolDefinition;
}

/**
 * `approval` and `oneCallAtATime` name tools as the model sees them: a name
 * that is a tool's unprefixed name would silently match nothing (and a call
 * meant to wait for a person would not), so it is an error.
 */
function assertPrefixedNames(options: McpServerOptions, definitions: readonly McpToolDefinition[], prefix: string): void {
  const approval = options.approval;
  const named = [
    ...(typeof approval === 'object' && approval !== null ? Object.keys(approval).map((name) => ['approval', name] as const) : []),
    ...(Array.isArray(options.oneCallAtATime) ? options.oneCallAtATime.map((name: string) => ['oneCallAtATime', name] as const) : []),
  ];
  const serverNames = new Set(definitions.map((definition) => definition.name));
  for (const [option, name] of named) {
    if (!serverNames.has(name) || name.startsWith(`${prefix}__`)) continue;
    throw new ConfigurationError(
      `mcpServer({ name: "${options.name}" }): \`${option}\` names "${name}", but with the prefix the model sees it as "${modelToolName(name, prefix, options.name)}": use that name.`,
      { server: options.name, option, name },
    );
  }
}

function kept(filter: McpServerOptions['filter'], tool: McpToolDescription): boolean {
  if (filter === undefined) return true;
  if (typeof filter === 'function') return filter(tool);
  return filter.includes(tool.name) || filter.includes(tool.modelName);
}
