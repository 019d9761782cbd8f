import { ToolError, toolResult, type ToolResultValue } from '@agentchart/core';
import { redactKnownSecrets } from '@agentchart/core/internal';
import { readCappedBody } from './readCappedBody.js';

/** What a tool made by `toolsFromOpenAPI` returns to the program. */
export interface OpenApiResponse {
  status: number;
  statusText: string;
  contentType: string | undefined;
  /** Parsed JSON when the response is JSON, else the text (also when the body was cut). */
  body: unknown;
  /** Set when the body was longer than `maxResponseBytes` and only its start was read. */
  cut?: true;
}

export interface OpenApiRequest {
  /** For messages: `GET /pet/{petId}` (the template, never the URL: it may hold a query credential). */
  label: string;
  url: URL;
  method: string;
  headers: Headers;
  body: string | URLSearchParams | FormData | undefined;
  timeoutMs: number;
  maxResponseChars: number;
  /** Bytes of the body read at most; the rest is not read. */
  maxResponseBytes: number;
  /** Credential values to redact from the response and error messages (the caller's, and the registered ones). */
  secrets: readonly string[];
  signal: AbortSignal;
}

/**
 * Sends one request and turns every outcome into a tool result: a 2xx
 * response is returned (JSON parsed) with its status; a 3xx (redirects are
 * never followed, so a call cannot leave the server), 4xx or 5xx response, a
 * timeout and a connection failure each become a `ToolError` whose message
 * the model sees. Aborting the run rethrows the abort. The body is read as a
 * stream up to `maxResponseBytes` (then cut, with a note), and any credential
 * value it echoes is redacted before the model, events or traces see it.
 */
export async function sendOpenApiRequest(request: OpenApiRequest): Promise<ToolResultValue<OpenApiResponse>> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  let response: Response;
  try {
    response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      body: request.body,
      redirect: 'manual',
      signal: AbortSignal.any([request.signal, timeout]),
    });
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason ?? error;
    if (timeout.aborted) throw new ToolError(`${request.label} timed out after ${request.timeoutMs} ms. Try again later or with a narrower request.`);
    const cause = (error as { cause?: { code?: unknown } }).cause;
    const reason = typeof cause?.code === 'string' ? cause.code : (error as Error).message;
    throw new ToolError(`${request.label} failed: the server could not be reached (${reason}).`);
  }
  let text: string;
  let cut: boolean;
  try {
    const read = await readCappedBody(response, request.maxResponseBytes);
    text = redactKnownSecrets(read.text, request.secrets);
    cut = read.cut;
  } catch (error) {
    if (request.signal.aborted) throw request.signal.reason ?? error;
    throw new ToolError(
      timeout.aborted
        ? `${request.label} timed out after ${request.timeoutMs} ms while reading the response.`
        : `${request.label} failed while reading the response.`,
    );
  }
  const contentType = response.headers.get('content-type') ?? undefined;
  const body = cut ? text : parseBody(text, contentType);
  const cutNote = cut ? `\n[response cut: only its first ${request.maxResponseBytes} bytes were read]` : '';
  const shown = truncate(typeof body === 'string' ? body : JSON.stringify(body), request.maxResponseChars) + cutNote;
  const statusLine = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}`;
  if (response.status >= 300 && response.status < 400) {
    throw new ToolError(`${statusLine}: ${request.label} answered with a redirect, which is not followed.`, { status: response.status });
  }
  if (!response.ok) throw new ToolError(shown === '' ? statusLine : `${statusLine}\n${shown}`, { status: response.status });
  return toolResult(
    { status: response.status, statusText: response.statusText, contentType, body, ...(cut ? { cut: true as const } : {}) },
    { text: shown === '' ? statusLine : `${statusLine}\n${shown}` },
  );
}

function parseBody(text: string, contentType: string | undefined): unknown {
  if (text === '' || contentType === undefined || !/[/+]json\b/i.test(contentType)) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function truncate(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters cut]`;
}
