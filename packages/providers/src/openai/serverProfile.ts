import { DEFAULT_PROBE_TIMEOUT_MS } from '../constants.js';

/** The OpenAI-compatible servers whose differences `openai()` absorbs. LM Studio is built on llama.cpp. */
export type OpenAICompat = 'openai' | 'vllm' | 'llama.cpp' | 'ollama';

/** How one kind of server is spoken to. */
export interface ServerProfile {
  compat: OpenAICompat;
  /**
   * The server takes `tool_choice` as a string only (llama.cpp turns a named
   * object into `auto`; Ollama ignores it): a named choice is sent as
   * `'required'` with only that tool offered.
   */
  namedChoiceAsRequired: boolean;
  /** The assistant-message field that carries reasoning back, where the server accepts one. */
  reasoningField?: 'reasoning_content' | 'reasoning';
}

const PROFILES: Record<OpenAICompat, ServerProfile> = {
  // OpenAI rejects unknown message fields; its reasoning is not returned on chat completions.
  openai: { compat: 'openai', namedChoiceAsRequired: false },
  // vLLM: named tool_choice through guided decoding, its reply ending with finish_reason "stop"
  // (vllm/entrypoints/openai/chat_completion/serving.py, chat_completion_stream_generator);
  // reads `reasoning_content` on assistant messages.
  vllm: { compat: 'vllm', namedChoiceAsRequired: false, reasoningField: 'reasoning_content' },
  // llama.cpp: tools/server/server-common.cpp `oaicompat_chat_params_parse` reads tool_choice with
  // `json_value(body, "tool_choice", std::string("auto"))`, and `json_value` (server-common.h) returns the
  // default on a type error, so a named object becomes `auto`; common/chat.cpp `common_chat_msgs_parse_oaicompat`
  // reads `reasoning_content` on messages. LM Studio (closed source) is given this profile as a safe assumption.
  'llama.cpp': { compat: 'llama.cpp', namedChoiceAsRequired: true, reasoningField: 'reasoning_content' },
  // Ollama openai/openai.go: `reasoning` on messages becomes `thinking`; tool_choice is not read.
  ollama: { compat: 'ollama', namedChoiceAsRequired: true, reasoningField: 'reasoning' },
};

/**
 * The profile of a kind of server.
 *
 * @example
 * serverProfile('llama.cpp').namedChoiceAsRequired; // true
 */
export function serverProfile(compat: OpenAICompat): ServerProfile {
  return PROFILES[compat];
}

/** Whether a value names a profile. */
export const isCompat = (value: unknown): value is OpenAICompat => typeof value === 'string' && value in PROFILES;

/**
 * Which server answers at `baseURL`, from what it says of itself: the
 * `owned_by` of its `/models` list (`vllm`: vllm/entrypoints/openai/engine/protocol.py
 * `ModelCard`; `llamacpp`: llama.cpp tools/server/server-context.cpp and
 * server-models.cpp; Ollama's `library`, or an `/api/version` beside `/v1`;
 * `organization_owner`, which LM Studio answers though its docs do not say
 * so). Anything else is `openai`; no answer at all
 * (nothing listens yet, or no answer within the wait) is undefined, so the
 * caller can ask again later. Never throws.
 *
 * @example
 * await detectCompat('http://127.0.0.1:8000/v1', {}); // 'vllm'
 */
export async function detectCompat(
  baseURL: string,
  headers: Record<string, string>,
  timeoutMs = DEFAULT_PROBE_TIMEOUT_MS * 10,
): Promise<OpenAICompat | undefined> {
  let response: Response;
  try {
    response = await fetch(`${baseURL}/models`, { headers, signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    return undefined;
  }
  try {
    if (!response.ok) return 'openai';
    const text = await response.text();
    if (text.length > 1_000_000) return 'openai';
    const owners = ((JSON.parse(text) as { data?: Array<{ owned_by?: unknown }> }).data ?? []).map((model) => String(model.owned_by ?? ''));
    if (owners.includes('vllm')) return 'vllm';
    if (owners.includes('llamacpp') || owners.includes('organization_owner')) return 'llama.cpp';
    if (owners.includes('library') || owners.includes('ollama')) return 'ollama';
    return (await answersAsOllama(baseURL, headers, timeoutMs)) ? 'ollama' : 'openai';
  } catch {
    return 'openai';
  }
}

/** Ollama names models by their own namespace in newer versions; its `/api/version` beside `/v1` tells. */
async function answersAsOllama(baseURL: string, headers: Record<string, string>, timeoutMs: number): Promise<boolean> {
  if (!/\/v1\/?$/.test(baseURL)) return false;
  try {
    const response = await fetch(`${baseURL.replace(/\/v1\/?$/, '')}/api/version`, { headers, signal: AbortSignal.timeout(timeoutMs) });
    if (!response.ok) return false;
    const body = (await response.json()) as { version?: unknown };
    return typeof body.version === 'string';
  } catch {
    return false;
  }
}
