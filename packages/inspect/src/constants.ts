/** Defaults that change behaviour, in one place. */

/** Strings longer than this are cut before they leave the process (messages, tool results). */
export const DEFAULT_MAX_STRING_LENGTH = 2000;
/** Arrays longer than this keep only their last items (long histories). */
export const DEFAULT_MAX_ARRAY_ITEMS = 30;
/** Objects nested deeper than this are replaced by a marker. */
export const DEFAULT_MAX_DEPTH = 12;
/** Context keys that hold code, not data, and never leave the process. */
export const DEFAULT_DROPPED_KEYS: readonly string[] = ['runtime'];
/** What replaces a secret. */
export const REDACTED = '[redacted]';

/** The port of the Stately inspector bridge (`inspectWithStately`). */
export const DEFAULT_STATELY_PORT = 8080;
/** The port of the local live view (`agentchart view`); 0 picks a free one. */
export const DEFAULT_VIEW_PORT = 4321;
/** The live view and the Stately bridge listen on loopback only. */
export const VIEW_HOST = '127.0.0.1';

/** The trace format written by `createTraceRecorder`, read by `readTrace`. */
export const TRACE_FORMAT = 'agentchart-trace';
export const TRACE_VERSION = 1;
/** The `_version` the Stately inspector's messages carry: the `@statelyai/inspect` release whose protocol they follow. */
export const STATELY_PROTOCOL_VERSION = '0.7.2';
/** How many ended actors (done, failed, stopped) the Stately bridge keeps to announce to an inspector that connects late; live actors are all kept. */
export const STATELY_MAX_ENDED_ACTORS = 1000;
/** The Stately inspector the bridge page embeds (it is loaded from the internet). */
export const STATELY_INSPECTOR_URL = 'https://stately.ai/inspect';
