import { DEFAULT_PROBE_TIMEOUT_MS } from '../constants.js';
import { resolveOllamaHost } from './ollamaHost.js';

/** What `probeOllama` found. */
export interface OllamaProbe {
  /** The server URL that was asked. */
  host: string;
  /** Whether an Ollama server answered in time. */
  available: boolean;
  /** The server's version, when it answered. */
  version?: string;
}

/**
 * Asks whether an Ollama server answers at `host` (default `OLLAMA_HOST`,
 * else 127.0.0.1:11434), waiting at most `timeoutMs` (default 300 ms), so a
 * program can fall back quickly when no server runs. Never throws.
 *
 * @example
 * const probe = await probeOllama();
 * const model = probe.available ? ollama({ model: 'qwen3:8b' }) : scriptedModel(script);
 */
export async function probeOllama(options: { host?: string; timeoutMs?: number } = {}): Promise<OllamaProbe> {
  let host: string;
  try {
    host = resolveOllamaHost(options.host);
  } catch {
    return { host: options.host ?? process.env.OLLAMA_HOST ?? '', available: false };
  }
  try {
    const response = await fetch(`${host}/api/version`, { signal: AbortSignal.timeout(options.timeoutMs ?? DEFAULT_PROBE_TIMEOUT_MS) });
    if (!response.ok) return { host, available: false };
    const body = (await response.json()) as { version?: unknown };
    return typeof body.version === 'string' ? { host, available: true, version: body.version } : { host, available: true };
  } catch {
    return { host, available: false };
  }
}
