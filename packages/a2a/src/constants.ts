/** Where `serveA2a` listens unless told otherwise: this machine only. */
export const DEFAULT_A2A_HOST = '127.0.0.1';

/** The path every served agent and chat is under: `/a2a/<name>/`. */
export const A2A_BASE_PATH = '/a2a/';

/** The artifact that carries a task's final answer. */
export const ANSWER_ARTIFACT_ID = 'answer';

/** How long an aborted participant's turn waits for the remote agent to name the task it is to cancel, in ms. */
export const CANCEL_GRACE_MS = 2_000;
