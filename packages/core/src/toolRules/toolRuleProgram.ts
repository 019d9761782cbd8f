import type { ConditionalRule, ToolRule } from './toolRuleSchema.js';
import { ToolRulesError } from './toolRulesError.js';

type Args = Readonly<Record<string, unknown>>;

/**
 * A rule set in the form the rule engine reads: one table per rule family,
 * constraints on the same tool already intersected. Built once per agent by
 * `compileToolRules`; plain data that never changes.
 */
export interface ToolRuleProgram {
  readonly rules: readonly ToolRule[];
  /** Every tool the agent has, in the agent's order. */
  readonly tools: readonly string[];
  readonly toolSet: ReadonlySet<string>;
  /** Tools allowed before the first call; `null` when there is no init rule. */
  readonly initTools: readonly string[] | null;
  readonly initArgs: ReadonlyMap<string, Args>;
  readonly terminal: ReadonlySet<string>;
  readonly continueTools: ReadonlySet<string>;
  /** Per tool: the tools allowed right after it (intersection of its child rules), in tool order. */
  readonly children: ReadonlyMap<string, readonly string[]>;
  /** Per tool, per child: prefilled arguments when the child follows the tool. */
  readonly childArgs: ReadonlyMap<string, ReadonlyMap<string, Args>>;
  /** Per tool: the parents that must have been called before it. */
  readonly parentsOf: ReadonlyMap<string, readonly string[]>;
  readonly conditional: ReadonlyMap<string, ConditionalRule>;
  /** Per count-limited tool: its smallest limit. */
  readonly limits: ReadonlyMap<string, number>;
  /** Tools that must have run before the run may end, in tool order. */
  readonly required: readonly string[];
  readonly requiresApproval: ReadonlySet<string>;
  /** Tools whose having been called is remembered (parents and required tools), in tool order. */
  readonly tracked: readonly string[];
  /** Each tracked tool's position in `tracked`. */
  readonly trackedIndex: ReadonlyMap<string, number>;
}

/**
 * Builds the rule tables and rejects rules that name unknown tools or
 * contradict each other (`ToolRulesError`).
 */
export function buildToolRuleProgram(rules: readonly ToolRule[], toolNames: readonly string[]): ToolRuleProgram {
  const tools = [...new Set(toolNames)];
  const toolSet = new Set(tools);
  assertKnownTools(rules, toolSet);
  const order = (names: Iterable<string>) => {
    const wanted = new Set(names);
    return tools.filter((tool) => wanted.has(tool));
  };

  const init = new Set<string>();
  const initArgs = new Map<string, Args>();
  const terminal = new Set<string>();
  const continueTools = new Set<string>();
  const childSets = new Map<string, Set<string>>();
  const childArgs = new Map<string, Map<string, Args>>();
  const parents = new Map<string, Set<string>>();
  const conditional = new Map<string, ConditionalRule>();
  const limits = new Map<string, number>();
  const required = new Set<string>();
  const requiresApproval = new Set<string>();

  for (const rule of rules) {
    switch (rule.type) {
      case 'init':
        init.add(rule.tool);
        if (rule.args) initArgs.set(rule.tool, { ...initArgs.get(rule.tool), ...rule.args });
        break;
      case 'terminal':
        terminal.add(rule.tool);
        break;
      case 'continue':
        continueTools.add(rule.tool);
        break;
      case 'child': {
        const previous = childSets.get(rule.tool);
        const next = new Set(rule.children);
        childSets.set(rule.tool, previous ? new Set([...previous].filter((tool) => next.has(tool))) : next);
        for (const [child, args] of Object.entries(rule.childArgs ?? {})) {
          if (!next.has(child)) {
            throw new ToolRulesError(
              'TOOL_RULES_CONFLICT',
              `The child rule of "${rule.tool}" prefills arguments for "${child}", which is not one of its children (${rule.children.join(', ')}). Add it to the children or remove its arguments.`,
              { rule, child },
            );
          }
          const perChild = childArgs.get(rule.tool) ?? new Map<string, Args>();
          perChild.set(child, { ...perChild.get(child), ...args });
          childArgs.set(rule.tool, perChild);
        }
        break;
      }
      case 'parent':
        for (const child of rule.children) parents.set(child, (parents.get(child) ?? new Set()).add(rule.tool));
        break;
      case 'conditional': {
        const existing = conditional.get(rule.tool);
        if (existing) {
          throw new ToolRulesError(
            'TOOL_RULES_CONFLICT',
            `"${rule.tool}" has two conditional rules; its output can pick only one next tool. Merge their cases into one rule.`,
            { rules: [existing, rule] },
          );
        }
        conditional.set(rule.tool, rule);
        break;
      }
      case 'maxCount':
        limits.set(rule.tool, Math.min(rule.limit, limits.get(rule.tool) ?? Number.POSITIVE_INFINITY));
        break;
      case 'requiredBeforeExit':
        required.add(rule.tool);
        break;
      case 'requiresApproval':
        requiresApproval.add(rule.tool);
        break;
    }
  }
  for (const tool of terminal) {
    if (continueTools.has(tool)) {
      throw new ToolRulesError(
        'TOOL_RULES_CONFLICT',
        `"${tool}" is both terminal (it ends the run) and continue (the run may not end on it). Keep one of the two rules.`,
        { tool },
      );
    }
  }

  const children = new Map<string, readonly string[]>();
  for (const [tool, set] of childSets) children.set(tool, order(set));
  const parentsOf = new Map<string, readonly string[]>();
  for (const [child, set] of parents) parentsOf.set(child, order(set));
  const trackedSet = new Set<string>(required);
  for (const set of parents.values()) for (const parent of set) trackedSet.add(parent);

  const tracked = order(trackedSet);
  return {
    rules,
    tools,
    toolSet,
    initTools: init.size > 0 ? order(init) : null,
    initArgs,
    terminal,
    continueTools,
    children,
    childArgs,
    parentsOf,
    conditional,
    limits,
    required: order(required),
    requiresApproval,
    tracked,
    trackedIndex: new Map(tracked.map((tool, index) => [tool, index])),
  };
}

function assertKnownTools(rules: readonly ToolRule[], tools: ReadonlySet<string>): void {
  const unknown: { rule: ToolRule; tool: string }[] = [];
  for (const rule of rules) {
    for (const tool of namedTools(rule)) if (!tools.has(tool)) unknown.push({ rule, tool });
  }
  if (unknown.length === 0) return;
  const names = [...new Set(unknown.map((entry) => entry.tool))];
  throw new ToolRulesError(
    'TOOL_RULES_UNKNOWN_TOOL',
    `Tool rules name ${names.map((name) => `"${name}"`).join(', ')}, which the agent does not have ` +
      `(its tools: ${[...tools].join(', ') || 'none'}). Fix the names or add the tools.`,
    { unknownTools: names, rules: unknown.map((entry) => entry.rule) },
  );
}

/** Every tool a rule names. */
export function namedTools(rule: ToolRule): string[] {
  switch (rule.type) {
    case 'child':
      return [rule.tool, ...rule.children, ...Object.keys(rule.childArgs ?? {})];
    case 'parent':
      return [rule.tool, ...rule.children];
    case 'conditional':
      return [rule.tool, ...rule.cases.map((c) => c.then), ...(rule.defaultChild ? [rule.defaultChild] : [])];
    default:
      return [rule.tool];
  }
}
