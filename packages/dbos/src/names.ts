/** The DBOS application name every agentchart worker and client shares. */
export const DBOS_APPLICATION_NAME = 'agentchart';
/** The registered name of the group-chat workflow. */
export const CHAT_WORKFLOW_NAME = 'agentchart.chat';
/** The default queue chats are enqueued on. */
export const DEFAULT_CHAT_QUEUE = 'agentchart-chats';
/** The topic of the control messages (approve, reject, say, select, record) sent to a chat. */
export const CONTROL_TOPIC = 'agentchart.control';
/** The DBOS stream a chat writes its events to, in batches. */
export const EVENTS_STREAM = 'agentchart.events';
/** The DBOS event that says what a chat waits for (`null` when it does not wait). */
export const WAITING_EVENT = 'agentchart.waiting';
