import type { AnyTool } from '@agentchart/core';

/**
 * Tools that come from somewhere else than code: an MCP server, a registry.
 * An agent loads its sources before the first model request of a run (so a
 * source connects only when it is first used), compiles its tool rules and
 * checks its `toolChoice` against the names they offer, and follows their
 * list changes into running runs the way `ctx.addTools` / `ctx.removeTools`
 * change a run's tools.
 *
 * @example
 * const agent = createAgent({ name: 'dev', model, toolSources: [mcpServer({ name: 'github', url })] });
 */
export interface ToolSource {
  /** Names the source in errors and `tools.changed` events (1 to 64 letters, digits, `_` or `-`). */
  readonly name: string;
  /** Connects when needed and returns the tools as they are now (cached between changes). */
  loadTools(signal?: AbortSignal): Promise<readonly AnyTool[]>;
  /**
   * Calls `listener` whenever the source's list changed (load it again to see
   * the change); returns the unsubscribe. A listener may return a promise: a
   * source can wait for it (until the change is applied) before it hands the
   * result of the call that changed the list to the run.
   */
  onToolsChanged(listener: () => void | Promise<void>): () => void;
  /** Releases what the source holds (a connection, a child process). Loading again reconnects. */
  close(): Promise<void>;
}

/** True for objects that look like a `ToolSource`. */
export function isToolSource(value: unknown): value is ToolSource {
  const source = value as Partial<ToolSource> | null;
  return (
    typeof source === 'object' &&
    source !== null &&
    typeof source.name === 'string' &&
    typeof source.loadTools === 'function' &&
    typeof source.onToolsChanged === 'function' &&
    typeof source.close === 'function'
  );
}
