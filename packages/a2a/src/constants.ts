/** Where `serveA2a` listens unless told otherwise: this machine only. */
export const DEFAULT_A2A_HOST = '127.0.0.1';

/** The path every served agent and chat is under: `/a2a/<name>/`. */
export const A2A_BASE_PATH = '/a2a/';

/** The artifact that carries a task's final answer. */
export const ANSWER_ARTIFACT_ID = 'answer';
