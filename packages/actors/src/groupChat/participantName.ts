/** Names a participant may have (the same rule as agent and tool names). */
export const PARTICIPANT_NAME_PATTERN = /^[a-zA-Z0-9_-]{1,64}$/;

/** Words with a meaning of their own in selection, handoffs and afterWork; no participant may take them. */
export const RESERVED_PARTICIPANT_NAMES: readonly string[] = ['terminate', 'user', 'manager'];
