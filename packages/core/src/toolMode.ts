import { z } from 'zod';

/**
 * What the model may do with its tools, as an agent or a run asks for it:
 * - `'auto'`: call tools or answer, as it likes (the default);
 * - `'none'`: answer without calling a tool (no tool is offered);
 * - `'required'`: call at least one tool;
 * - `{ mode: 'required', requiredFunctionName }`: call this tool;
 * - `{ mode, allowedTools }`: as `mode`, offering only these tools.
 *
 * A required choice holds for the first model call only: after the first
 * iteration that ran tools it becomes `auto` (any `allowedTools` stay).
 *
 * @example
 * agent.run('Update REC-42', { toolChoice: { mode: 'required', requiredFunctionName: 'get_record' } });
 */
export type ToolMode =
  | 'auto'
  | 'none'
  | 'required'
  | {
      mode: 'auto' | 'none' | 'required';
      /** Only with `mode: 'required'`: the tool the model must call. */
      requiredFunctionName?: string;
      /** Offer only these tools (by name). */
      allowedTools?: readonly string[];
    };

/** A `ToolMode` in its object form, as the agent machine keeps it (plain data). */
export const ToolModeSettingSchema = z.object({
  mode: z.enum(['auto', 'none', 'required']),
  requiredFunctionName: z.string().min(1).optional(),
  allowedTools: z.array(z.string().min(1)).readonly().optional(),
});
export type ToolModeSetting = z.infer<typeof ToolModeSettingSchema>;
