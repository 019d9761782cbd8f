import { ConfigurationError } from '@agentchart/core';
import { DEFAULT_OLLAMA_HOST } from '../constants.js';

/**
 * The Ollama server URL to use: `host` if given, else `OLLAMA_HOST`, else
 * 127.0.0.1:11434. A bare `host:port` gets `http://`; a missing port 11434.
 * Throws a `ConfigurationError` for a value that is not a URL, or a URL that
 * is not http(s) (`ftp://`, `file://`: Ollama serves HTTP only).
 *
 * @example
 * resolveOllamaHost('localhost');         // 'http://localhost:11434'
 * resolveOllamaHost('https://gpu.lan');   // 'https://gpu.lan'
 */
export function resolveOllamaHost(host?: string): string {
  const raw = (host ?? process.env.OLLAMA_HOST ?? '').trim() || DEFAULT_OLLAMA_HOST;
  const withScheme = raw.includes('://') ? raw : `http://${raw.startsWith(':') ? `127.0.0.1${raw}` : raw}`;
  if (!URL.canParse(withScheme)) {
    throw new ConfigurationError(
      `The Ollama host ${JSON.stringify(raw)} is not a URL. Give \`host\` (or OLLAMA_HOST) as e.g. "http://127.0.0.1:11434" or "gpu-box:11434".`,
      { host: raw },
    );
  }
  const url = new URL(withScheme);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigurationError(
      `The Ollama host ${JSON.stringify(raw)} is a ${url.protocol.slice(0, -1)} URL; Ollama serves HTTP. Give \`host\` (or OLLAMA_HOST) as an http(s) URL, e.g. "http://127.0.0.1:11434", or as "host:port".`,
      { host: raw },
    );
  }
  if (!raw.includes('://') && url.port === '') url.port = '11434';
  return url.toString().replace(/\/+$/, '');
}
