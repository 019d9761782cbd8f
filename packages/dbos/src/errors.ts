import { AgentchartError } from '@agentchart/core';

/**
 * An error of the DBOS integration, with a stable `code`:
 * - `POSTGRES_UNREACHABLE`: the database URL does not answer;
 * - `SCHEMA_MISSING`: the database has no DBOS schema yet (no worker ever started on it);
 * - `DATABASE_URL_MISSING`: neither the option/flag nor `DBOS_DATABASE_URL` names a database;
 * - `UNKNOWN_CHAT`: a workflow names a chat the worker's module does not export;
 * - `CHAT_NOT_FOUND`: no chat with this id was ever enqueued;
 * - `WORKER_MODULE_INVALID`: a worker module that exports no chats;
 * - `CONTROL_MESSAGE_INVALID`: a message sent to a chat that is not a command;
 * - `CHAT_NOT_WAITING`: a command the chat's current wait does not ask for (nothing was sent);
 * - `WAIT_OVER`: a command for a wait that is not the chat's current one (nothing was sent).
 */
export class DbosChatError extends AgentchartError {
  constructor(
    code:
      | 'POSTGRES_UNREACHABLE'
      | 'SCHEMA_MISSING'
      | 'DATABASE_URL_MISSING'
      | 'UNKNOWN_CHAT'
      | 'CHAT_NOT_FOUND'
      | 'WORKER_MODULE_INVALID'
      | 'CONTROL_MESSAGE_INVALID'
      | 'CHAT_NOT_WAITING'
      | 'WAIT_OVER',
    message: string,
    details: Record<string, unknown> = {},
    options?: { cause?: unknown },
  ) {
    super(code, message, details, options);
  }
}
