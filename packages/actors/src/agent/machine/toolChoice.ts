import { type AnyTool, ConfigurationError, type ToolChoice, type ToolMode, type ToolModeSetting } from '@agentchart/core';
import { ToolModeSettingSchema } from '@agentchart/core/internal';
import { assertOptions } from '../../assertOptions.js';
import { ToolChoiceSchema } from './toolChoiceSchema.js';

/**
 * Turns what a user wrote (`'required'`, `{ mode, requiredFunctionName }`,
 * or the core form `{ type: 'tool', name }`) into the object form the agent
 * machine keeps, checking names: `allowedTools` against the tools the run
 * starts with and those it may add, the required tool against those it
 * starts with.
 *
 * @example
 * normalizeToolMode({ mode: 'required', requiredFunctionName: 'get_record' }, ['get_record'])
 * // { mode: 'required', requiredFunctionName: 'get_record' }
 */
export function normalizeToolMode(
  mode: ToolMode | ToolChoice | undefined,
  toolNames: readonly string[],
  addableNames: readonly string[] = [],
): ToolModeSetting {
  const setting = toSetting(mode);
  const known = new Set([...toolNames, ...addableNames]);
  const unknown = (setting.allowedTools ?? []).filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new ConfigurationError(
      `toolChoice.allowedTools names ${unknown.map((n) => `"${n}"`).join(', ')}, which the agent does not have. ` +
        `Its tools: ${[...known].join(', ') || '(none)'}.`,
      { unknown, tools: [...known] },
    );
  }
  const required = setting.requiredFunctionName;
  if (required !== undefined) {
    const offered = toolNames.filter((name) => setting.allowedTools?.includes(name) ?? true);
    if (!offered.includes(required)) {
      throw new ConfigurationError(
        `toolChoice.requiredFunctionName is "${required}", which the run would not offer. Offered tools: ${offered.join(', ') || '(none)'}.`,
        { requiredFunctionName: required, tools: [...offered] },
      );
    }
  }
  return setting;
}

/** The object form of a choice, checked against `ToolChoiceSchema` (one schema for the agent's and the run's choice). */
function toSetting(mode: ToolMode | ToolChoice | undefined): ToolModeSetting {
  if (mode === undefined) return { mode: 'auto' };
  assertOptions(ToolChoiceSchema, mode, undefined, 'toolChoice');
  if (typeof mode === 'string') return { mode };
  if ('type' in mode && mode.type === 'tool') return { mode: 'required', requiredFunctionName: mode.name };
  // Only the setting's own keys: it is kept (and persisted) as plain data.
  return ToolModeSettingSchema.parse(mode);
}

/**
 * The tools the next model call offers: the live list narrowed to
 * `allowedTools`, and nothing at all when the mode is `none` or the run
 * makes its last, tool-less call.
 */
export function offeredTools(setting: ToolModeSetting, live: readonly AnyTool[], toolsDisabled: boolean): readonly AnyTool[] {
  if (toolsDisabled || setting.mode === 'none') return [];
  const allowed = setting.allowedTools;
  return allowed === undefined ? live : live.filter((tool) => allowed.includes(tool.name));
}

/** The provider-neutral `ChatRequest.toolChoice` for a setting and the tools offered. */
export function toChatToolChoice(setting: ToolModeSetting, offered: readonly AnyTool[]): ToolChoice {
  if (offered.length === 0 || setting.mode === 'none') return 'none';
  if (setting.mode === 'auto') return 'auto';
  const name = setting.requiredFunctionName;
  if (name !== undefined && offered.some((tool) => tool.name === name)) return { type: 'tool', name };
  return 'required';
}

/** A required choice becomes `auto` once an iteration has run tools; `allowedTools` stay. */
export function afterToolIteration(setting: ToolModeSetting): ToolModeSetting {
  if (setting.mode !== 'required') return setting;
  return setting.allowedTools === undefined ? { mode: 'auto' } : { mode: 'auto', allowedTools: setting.allowedTools };
}
