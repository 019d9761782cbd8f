import type { ChatModel } from '@agentchart/core';
import { ollama, probeOllama } from '@agentchart/providers';

/** The model the demo runs on, and a line that says which it is and why. */
export interface DemoModelChoice {
  model: ChatModel;
  description: string;
}

export interface DemoModelSources {
  /** Command-line arguments (`--model <name>` or `--model=<name>`). */
  argv: readonly string[];
  /** Environment: `AGENTCHART_MODEL` or `OLLAMA_MODEL` name a model, `OLLAMA_HOST` the server. */
  env: Readonly<Record<string, string | undefined>>;
  /** The model to use when Ollama is not available. */
  fallback: () => ChatModel;
  /** How long to wait for Ollama to answer, in ms (default: the providers' probe default). */
  probeTimeoutMs?: number;
}

/**
 * Picks Ollama when a model is named and a server answers at `OLLAMA_HOST`
 * (default 127.0.0.1:11434), otherwise the fallback. Without a named model
 * no probe is made; the probe itself waits only a few hundred ms.
 *
 * @example
 * const { model, description } = await chooseDemoModel({ argv: process.argv.slice(2), env: process.env, fallback });
 */
export async function chooseDemoModel(sources: DemoModelSources): Promise<DemoModelChoice> {
  const name = modelFlag(sources.argv) ?? nonEmpty(sources.env.AGENTCHART_MODEL) ?? nonEmpty(sources.env.OLLAMA_MODEL);
  if (name === undefined) {
    return {
      model: sources.fallback(),
      description: 'scripted (deterministic). To use Ollama, name a model: --model qwen3:8b, or AGENTCHART_MODEL=qwen3:8b.',
    };
  }
  const probe = await probeOllama({ host: nonEmpty(sources.env.OLLAMA_HOST), timeoutMs: sources.probeTimeoutMs });
  if (!probe.available) {
    return {
      model: sources.fallback(),
      description: `scripted (deterministic): no Ollama server answered at ${probe.host}. Start one with \`ollama serve\` to run "${name}".`,
    };
  }
  return {
    model: ollama({ model: name, host: probe.host }),
    description: `ollama "${name}" at ${probe.host}${probe.version ? ` (Ollama ${probe.version})` : ''}`,
  };
}

function modelFlag(argv: readonly string[]): string | undefined {
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === '--model') return nonEmpty(argv[index + 1]);
    if (arg.startsWith('--model=')) return nonEmpty(arg.slice('--model='.length));
  }
  return undefined;
}

const nonEmpty = (value: string | undefined): string | undefined => (value?.trim() ? value.trim() : undefined);
