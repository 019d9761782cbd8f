import { type AnyTool, DuplicateToolError, ToolDefinitionError, type ToolSpec, type ToolsToAdd, type ToolsToRemove } from '@agentchart/core';

/** What one `add` or `remove` changed (names). */
export interface ToolListChange {
  added: string[];
  removed: string[];
}

/**
 * The tool list of one run. Every run gets its own, copied from the agent's
 * tools, so the agent's list is never mutated and every guard that adds or
 * removes tools re-arms on the next run. Insertion order is kept: the model
 * sees the tools in the order they were given or added.
 *
 * @example
 * const live = new LiveToolSet([loadMathTools]);
 * live.add([factorial, fibonacci]);
 * live.names(); // ['load_math_tools', 'factorial', 'fibonacci']
 */
/** One change of a run's tool list, as persisted: by a tool call (its call id) or by a tool source (`tool-source`). */
export interface ToolListChangeRecord {
  by: string;
  added: string[];
  removed: string[];
}

export class LiveToolSet {
  readonly #tools = new Map<string, AnyTool>();
  /** Every change since the run started, in order (none in most runs: made on the first). */
  #log: ToolListChangeRecord[] | undefined;
  /** `view()` and `byName()` as of the last change (made when first asked for after it). */
  #view: readonly AnyTool[] | undefined;
  #byName: ReadonlyMap<string, AnyTool> | undefined;
  /** `specs()` as of the last change. */
  #specs: readonly ToolSpec[] | undefined;

  constructor(initial: Iterable<AnyTool>) {
    this.add([...initial]);
  }

  /** The tools as they are now (a copy). */
  list(): AnyTool[] {
    return [...this.#tools.values()];
  }

  /** The tools as they are now, shared until the next change (for the agent's own reads; never hand it to a tool). */
  view(): readonly AnyTool[] {
    this.#view ??= [...this.#tools.values()];
    return this.#view;
  }

  /** The specs of `view()`, as a model request offers them: one frozen list, shared until the next change. */
  specs(): readonly ToolSpec[] {
    this.#specs ??= Object.freeze(this.view().map((tool) => tool.spec));
    return this.#specs;
  }

  /** The tools as they are now by name, shared until the next change. */
  byName(): ReadonlyMap<string, AnyTool> {
    this.#byName ??= new Map(this.#tools);
    return this.#byName;
  }

  get(name: string): AnyTool | undefined {
    return this.#tools.get(name);
  }

  names(): string[] {
    return [...this.#tools.keys()];
  }

  /**
   * Adds tools. The same object again is a no-op; a different tool with a
   * name already present (in the list or earlier in `tools`) throws
   * `DuplicateToolError` and nothing of `tools` is added.
   */
  add(tools: ToolsToAdd): ToolListChange {
    const list: readonly AnyTool[] = Array.isArray(tools) ? tools : [tools as AnyTool];
    const toAdd = new Map<string, AnyTool>();
    for (const tool of list) {
      assertIsTool(tool, 'ctx.addTools() takes tools made with defineTool(), or a list of them.');
      const present = this.#tools.get(tool.name) ?? toAdd.get(tool.name);
      if (present === tool) continue;
      if (present !== undefined) throw new DuplicateToolError(tool.name);
      toAdd.set(tool.name, tool);
    }
    for (const [name, tool] of toAdd) this.#tools.set(name, tool);
    if (toAdd.size > 0) this.#changed();
    return { added: [...toAdd.keys()], removed: [] };
  }

  /** Removes tools by name or object; names not in the list are ignored. */
  remove(tools: ToolsToRemove): ToolListChange {
    const list: readonly (string | AnyTool)[] = Array.isArray(tools) ? tools : [tools as string | AnyTool];
    const removed: string[] = [];
    for (const entry of list) {
      const name = typeof entry === 'string' ? entry : entry?.name;
      if (typeof name !== 'string') {
        throw new ToolDefinitionError('ctx.removeTools() takes tool names, tools, or a list of them.', {
          got: typeof entry,
        });
      }
      if (this.#tools.delete(name)) removed.push(name);
    }
    if (removed.length > 0) this.#changed();
    return { added: [], removed };
  }

  /** Notes a change made by `by` (a call id, or `tool-source`): persisted with the run, so a resume can re-derive the list. */
  record(by: string, change: ToolListChange): void {
    this.#log ??= [];
    this.#log.push({ by, added: change.added, removed: change.removed });
  }

  /** The changes noted so far (a copy). */
  changeLog(): ToolListChangeRecord[] {
    return this.#log === undefined ? [] : this.#log.map((change) => ({ ...change }));
  }

  #changed(): void {
    this.#view = undefined;
    this.#byName = undefined;
    this.#specs = undefined;
  }
}

/** Throws `ToolDefinitionError` with `message` unless `value` is a tool made with `defineTool`. */
export function assertIsTool(value: unknown, message: string): asserts value is AnyTool {
  const tool = value as Partial<AnyTool> | null;
  if (typeof tool !== 'object' || tool === null || typeof tool.name !== 'string' || typeof tool.execute !== 'function' || tool.spec === undefined) {
    throw new ToolDefinitionError(message, {
      got: tool === null ? 'null' : typeof tool,
    });
  }
}
