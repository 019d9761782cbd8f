import { z } from 'zod';
import { setOwn } from '../ownKeys.js';
import type { ToolRule } from './toolRuleSchema.js';

const toolName = z.string().min(1);
const args = z.record(z.string(), z.unknown());
/** Letta sends `null` for absent optional fields. */
const optional = <T extends z.ZodType>(schema: T) => schema.nullish();
const base = { tool_name: toolName, prompt_template: optional(z.string()) };

/**
 * Letta's JSON form of the nine tool rules, accepted as is (extra fields are
 * ignored, `null` means absent). `prompt_template` is accepted and ignored.
 *
 * @example
 * LettaToolRuleSchema.parse({ type: 'exit_loop', tool_name: 'send_message' });
 */
export const LettaToolRuleSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('run_first'), ...base, args: optional(args) }),
  z.object({ type: z.literal('exit_loop'), ...base }),
  z.object({ type: z.literal('continue_loop'), ...base }),
  z.object({
    type: z.literal('constrain_child_tools'),
    ...base,
    children: z.array(toolName),
    child_arg_nodes: optional(z.array(z.object({ name: toolName, args: optional(args) }))),
  }),
  z.object({ type: z.literal('parent_last_tool'), ...base, children: z.array(toolName) }),
  z.object({
    type: z.literal('conditional'),
    ...base,
    default_child: optional(toolName),
    child_output_mapping: z.record(z.string(), toolName),
    require_output_mapping: optional(z.boolean()),
  }),
  z.object({ type: z.literal('max_count_per_step'), ...base, max_count_limit: z.number().int().nonnegative() }),
  z.object({ type: z.literal('required_before_exit'), ...base }),
  z.object({ type: z.literal('requires_approval'), ...base }),
]);
export type LettaToolRule = z.infer<typeof LettaToolRuleSchema>;

/**
 * Converts a Letta rule into agentchart's form. Conditional mapping keys stay
 * strings (JSON object keys are strings); they match outputs by their text form.
 */
export function fromLettaToolRule(rule: LettaToolRule): ToolRule {
  const tool = rule.tool_name;
  switch (rule.type) {
    case 'run_first':
      return rule.args ? { type: 'init', tool, args: rule.args } : { type: 'init', tool };
    case 'exit_loop':
      return { type: 'terminal', tool };
    case 'continue_loop':
      return { type: 'continue', tool };
    case 'constrain_child_tools': {
      const childArgs: Record<string, Record<string, unknown>> = {};
      for (const node of rule.child_arg_nodes ?? []) if (node.args) setOwn(childArgs, node.name, node.args);
      return Object.keys(childArgs).length > 0
        ? { type: 'child', tool, children: rule.children, childArgs }
        : { type: 'child', tool, children: rule.children };
    }
    case 'parent_last_tool':
      return { type: 'parent', tool, children: rule.children };
    case 'conditional': {
      const converted: ToolRule = {
        type: 'conditional',
        tool,
        cases: Object.entries(rule.child_output_mapping).map(([when, then]) => ({ when, then })),
      };
      if (rule.default_child) converted.defaultChild = rule.default_child;
      if (rule.require_output_mapping) converted.requireMatch = true;
      return converted;
    }
    case 'max_count_per_step':
      return { type: 'maxCount', tool, limit: rule.max_count_limit };
    case 'required_before_exit':
      return { type: 'requiredBeforeExit', tool };
    case 'requires_approval':
      return { type: 'requiresApproval', tool };
  }
}
