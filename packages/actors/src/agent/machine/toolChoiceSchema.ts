import { z } from 'zod';
import { chosenBy, expects } from '../../assertOptions.js';

const modes = ['auto', 'none', 'required'] as const;
const anyForm = expects(
  "must be 'auto', 'none', 'required', { mode: 'required', requiredFunctionName }, { mode, allowedTools } or { type: 'tool', name }",
);
const toolName = expects('must be the name of a tool (a non-empty string)');

/** The core form `{ type: 'tool', name }`. */
const ToolFormSchema = z.object({
  type: z.literal('tool', expects("must be 'tool' (the form { type: 'tool', name })")),
  name: z.string(toolName).min(1, toolName),
});

/** `{ mode, requiredFunctionName?, allowedTools? }`, refusing the combinations that contradict themselves. */
const ToolModeObjectSchema = z
  .object({
    mode: z.enum(modes, expects("must be 'auto', 'none' or 'required'")),
    requiredFunctionName: z.string(toolName).min(1, toolName).optional(),
    allowedTools: z.array(z.string(toolName).min(1, toolName), expects('must be a list of tool names')).optional(),
  })
  .superRefine((setting, context) => {
    if (setting.mode === 'none' && setting.allowedTools !== undefined) {
      context.addIssue({
        code: 'custom',
        path: ['allowedTools'],
        input: setting.allowedTools,
        message:
          "contradicts mode 'none', which offers no tools at all: leave allowedTools out, or use { mode: 'auto', allowedTools } to offer only those tools",
      });
    }
    if (setting.requiredFunctionName !== undefined && setting.mode !== 'required') {
      context.addIssue({
        code: 'custom',
        path: ['requiredFunctionName'],
        input: setting.requiredFunctionName,
        message: `needs mode 'required' (got '${setting.mode}')`,
      });
    }
  });

/**
 * What the `toolChoice` option (of `createAgent` and of `agent.run`) takes:
 * `'auto'`, `'none'`, `'required'`, `{ mode, requiredFunctionName?, allowedTools? }`
 * or the core form `{ type: 'tool', name }`. Refuses `requiredFunctionName`
 * without mode `required`, and `allowedTools` with mode `none`. Which tools
 * the names may be is checked against the agent (`normalizeToolMode`).
 */
export const ToolChoiceSchema = chosenBy((value) => {
  if (typeof value !== 'object' || value === null) return z.enum(modes, anyForm);
  return 'type' in value ? ToolFormSchema : ToolModeObjectSchema;
});
