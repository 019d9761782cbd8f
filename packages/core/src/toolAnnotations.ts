/**
 * Hints about what a tool does, as MCP servers describe their tools. They are
 * hints, not guarantees (a server may be wrong about its own tools): approval
 * predicates can read them, and code that decides whether a call whose outcome
 * is unknown may be run again (`idempotentHint`, `readOnlyHint`) can too.
 *
 * @example
 * const safeToRetry = (tool: AnyTool) => tool.annotations?.readOnlyHint === true || tool.annotations?.idempotentHint === true;
 */
export interface ToolAnnotations {
  /** A human-readable title. */
  readonly title?: string;
  /** The tool does not change its environment. */
  readonly readOnlyHint?: boolean;
  /** The tool may destroy or overwrite (meaningful when not read-only). */
  readonly destructiveHint?: boolean;
  /** Calling it again with the same arguments has no further effect. */
  readonly idempotentHint?: boolean;
  /** The tool reaches an open world (the web, other people), not a closed domain. */
  readonly openWorldHint?: boolean;
}
