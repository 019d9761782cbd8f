/** Defaults that change behaviour, in one place. */

/** Model round trips a run may make unless `maxSteps` says otherwise. */
export const DEFAULT_MAX_STEPS = 10;

/** Times the `auto` speaker selector is asked again after naming nobody eligible, before the fallback. */
export const DEFAULT_SELECTOR_MAX_RETRIES = 2;

/** The name a group chat has as a participant of another chat, unless `name` says otherwise. */
export const DEFAULT_GROUP_CHAT_NAME = 'group_chat';
