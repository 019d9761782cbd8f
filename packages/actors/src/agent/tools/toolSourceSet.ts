import type { AnyTool } from '@agentchart/core';
import { type ToolSource, isToolSource } from './toolSource.js';
import { ToolSourceError } from './toolSourceError.js';

/** The tools of every source of an agent, as last loaded. */
export interface LoadedSourceTools {
  /** All sources' tools, in source order. */
  readonly tools: readonly AnyTool[];
  /** Per source name: its tools. */
  readonly bySource: ReadonlyMap<string, readonly AnyTool[]>;
}

/**
 * An agent's tool sources: loads them together (concurrently), rejects a
 * name offered twice with an error naming both offerers, and closes them.
 *
 * @example
 * const set = new ToolSourceSet([github, files], ['search']);
 * const { tools } = await set.load();
 */
export class ToolSourceSet {
  readonly sources: readonly ToolSource[];
  readonly #ownNames: ReadonlySet<string>;

  constructor(sources: readonly unknown[], ownNames: Iterable<string>) {
    const names = new Set<string>();
    for (const source of sources) {
      if (!isToolSource(source)) {
        throw new ToolSourceError(
          'TOOL_SOURCE_INVALID',
          'createAgent({ toolSources }) takes tool sources, e.g. mcpServer({ name, command }) or mcpServer({ name, url }).',
          {
            got: source === null ? 'null' : typeof source,
          },
        );
      }
      if (names.has(source.name)) {
        throw new ToolSourceError('TOOL_SOURCE_INVALID', `Two tool sources are named "${source.name}": give each its own name.`, {
          name: source.name,
        });
      }
      names.add(source.name);
    }
    this.sources = sources as ToolSource[];
    this.#ownNames = new Set(ownNames);
  }

  /** Loads every source; throws `ToolSourceError` when two offer the same name. */
  async load(signal?: AbortSignal): Promise<LoadedSourceTools> {
    const lists = await Promise.all(this.sources.map((source) => source.loadTools(signal)));
    const bySource = new Map<string, readonly AnyTool[]>();
    this.sources.forEach((source, index) => bySource.set(source.name, lists[index] ?? []));
    return { tools: checkedSourceTools(bySource, this.#ownNames), bySource };
  }

  /** Calls `listener` with the source's name whenever a source's list changed; returns the unsubscribe. */
  onToolsChanged(listener: (source: ToolSource) => void | Promise<void>): () => void {
    const stops = this.sources.map((source) => source.onToolsChanged(() => listener(source)));
    return () => {
      for (const stop of stops) stop();
    };
  }

  async close(): Promise<void> {
    await Promise.allSettled(this.sources.map((source) => source.close()));
  }
}

/** The sources' tools in one list; a name offered twice (or also an own tool) throws. */
export function checkedSourceTools(bySource: ReadonlyMap<string, readonly AnyTool[]>, ownNames: ReadonlySet<string>): AnyTool[] {
  const offeredBy = new Map<string, string>();
  const tools: AnyTool[] = [];
  for (const [source, list] of bySource) {
    for (const tool of list) {
      const first = ownNames.has(tool.name) ? undefined : offeredBy.get(tool.name);
      if (ownNames.has(tool.name) || first !== undefined) {
        const other = first === undefined ? "the agent's own tools" : `tool source "${first}"`;
        throw new ToolSourceError(
          'TOOL_SOURCE_NAME_COLLISION',
          `Tool "${tool.name}" is offered by ${other} and by tool source "${source}": ` +
            'give a source a prefix (mcpServer({ prefix })) or a filter that leaves the tool out.',
          { tool: tool.name, sources: first === undefined ? [source] : [first, source] },
        );
      }
      offeredBy.set(tool.name, source);
      tools.push(tool);
    }
  }
  return tools;
}
