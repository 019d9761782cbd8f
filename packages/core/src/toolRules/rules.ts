import type { ChildRule, ConditionalKey, ConditionalRule, ToolRule, ToolRuleOf } from './toolRuleSchema.js';

type Args = Record<string, unknown>;

/** Options of `rules.conditional`. */
export interface ConditionalOptions {
  /**
   * Output → next tool, tried in order. An object's keys are strings; use an
   * array of `[key, tool]` pairs for boolean or number keys.
   */
  cases: Record<string, string> | ReadonlyArray<readonly [ConditionalKey, string]>;
  /** The next tool when no case matches. */
  default?: string;
  /** Fail the run when no case matches and there is no default. */
  requireMatch?: boolean;
}

/**
 * Builds tool rules in agentchart's form. Every rule is plain data (validated
 * again by `compileToolRules`), so rule sets can be stored as JSON.
 *
 * @example
 * const toolRules = [
 *   rules.init('search'),
 *   rules.child('search', ['read', 'summarize']),
 *   rules.conditional('check', { cases: [[true, 'publish'], [false, 'revise']] }),
 *   rules.maxCount('search', 3),
 *   rules.requiredBeforeExit('save'),
 *   rules.terminal('send_message'),
 * ];
 */
export const rules = {
  /** Before the first tool call of a run, only init tools are allowed; `args` override the model's. */
  init: (tool: string, options: { args?: Args } = {}): ToolRuleOf<'init'> =>
    options.args ? { type: 'init', tool, args: options.args } : { type: 'init', tool },
  /** Calling the tool ends the run once it has executed. */
  terminal: (tool: string): ToolRuleOf<'terminal'> => ({ type: 'terminal', tool }),
  /** After the tool the model must be called again; the run cannot end on it. */
  continue: (tool: string): ToolRuleOf<'continue'> => ({ type: 'continue', tool }),
  /** Right after `tool`, only `children` are allowed; `args[child]` override the model's values for that child. */
  child: (tool: string, children: readonly string[], options: { args?: Record<string, Args> } = {}): ChildRule =>
    options.args ? { type: 'child', tool, children: [...children], childArgs: options.args } : { type: 'child', tool, children: [...children] },
  /** `children` are allowed only once `tool` has been called in this run. */
  parent: (tool: string, children: readonly string[]): ToolRuleOf<'parent'> => ({
    type: 'parent',
    tool,
    children: [...children],
  }),
  /** Right after `tool`, its returned value picks the next tool. */
  conditional: (tool: string, options: ConditionalOptions): ConditionalRule => {
    const pairs = Array.isArray(options.cases) ? options.cases : Object.entries(options.cases);
    const rule: ConditionalRule = {
      type: 'conditional',
      tool,
      cases: pairs.map(([when, then]: readonly [ConditionalKey, string]) => ({ when, then })),
    };
    if (options.default !== undefined) rule.defaultChild = options.default;
    if (options.requireMatch) rule.requireMatch = true;
    return rule;
  },
  /** At most `limit` calls of the tool in one run. */
  maxCount: (tool: string, limit: number): ToolRuleOf<'maxCount'> => ({ type: 'maxCount', tool, limit }),
  /** The run may not end until the tool has run. */
  requiredBeforeExit: (tool: string): ToolRuleOf<'requiredBeforeExit'> => ({ type: 'requiredBeforeExit', tool }),
  /** A call of the tool waits for a human decision. */
  requiresApproval: (tool: string): ToolRuleOf<'requiresApproval'> => ({ type: 'requiresApproval', tool }),
} satisfies Record<string, (...args: never[]) => ToolRule>;
