/** Largest `RunAgentInput` body `serveAgUi` reads, in bytes (a thread's whole history travels in every input). */
export const DEFAULT_AG_UI_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The path under which every served agent and chat answers: `POST /ag-ui/<name>`. */
export const AG_UI_PATH_PREFIX = '/ag-ui/';

/** How many characters a thread or run id may have (letters, digits, `_`, `-`, `.`, `:`, `@`; no `/`). */
export const AG_UI_MAX_ID_LENGTH = 200;

/** The names of the `CUSTOM` events `serveAgUi` sends. */
export const AG_UI_CUSTOM_EVENTS = {
  speakerSelected: 'agentchart.speaker_selected',
  toolRefused: 'agentchart.tool_refused',
  handoff: 'agentchart.handoff',
  approvalDecided: 'agentchart.approval_decided',
} as const;

/** How often a run being loaded from a store is looked at until it is under way, in ms. */
export const LOAD_POLL_MS = 10;
