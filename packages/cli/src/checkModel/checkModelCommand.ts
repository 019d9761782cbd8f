import { writeFile } from 'node:fs/promises';
import type { ChatModel } from '@agentchart/core';
import { ollama, openai, resolveOllamaHost } from '@agentchart/providers';
import { parseCommandArgs } from '../args/parseCommandArgs.js';
import { UsageError } from '../cliErrors.js';
import { formatReportCard } from './formatReportCard.js';
import { runCheckModel } from './runCheckModel.js';
import { scenarios } from './scenarios.js';

export const CHECK_MODEL_USAGE = `Usage:
  agentchart check-model --provider ollama --model <name> [--host URL] [--tries N] [--out report.json]
  agentchart check-model --provider openai --model <name> [--base-url URL] [--compat openai|vllm|llama.cpp|ollama]
                         [--tries N] [--out report.json]

Runs fixed scenarios against a real server and prints a report card (pass rate per scenario,
latency, tokens): ${scenarios.map((scenario) => scenario.name).join(', ')}.
--tries N      tries per scenario (default 3)
--out FILE     also write the report card as JSON
--timeout-ms   the provider's timeoutMs (default 300000: the first request may load the model)
See docs/providers.md, "Checking a model".`;

/**
 * `agentchart check-model`: builds the provider from the flags, runs the
 * scenarios, prints the report card and writes it as JSON with `--out`.
 * Returns 0 when the check ran (whatever the pass rates); throws a
 * `UsageError` for bad flags (exit 2), and the connection error when the
 * server cannot be reached (exit 1, no report card).
 *
 * @example
 * process.exitCode = await checkModelCommand(['--provider', 'ollama', '--model', 'qwen3:8b', '--tries', '5']);
 */
export async function checkModelCommand(
  argv: readonly string[],
  out: (text: string) => void = (text) => process.stdout.write(text),
): Promise<number> {
  const parsed = parseCommandArgs(argv, {
    command: 'agentchart check-model',
    options: {
      provider: { type: 'string' },
      model: { type: 'string' },
      host: { type: 'string' },
      'base-url': { type: 'string' },
      compat: { type: 'string' },
      tries: { type: 'string', default: '3' },
      out: { type: 'string' },
      'timeout-ms': { type: 'string' },
    },
  });
  if (parsed === 'help') {
    out(`${CHECK_MODEL_USAGE}\n`);
    return 0;
  }
  const { values } = parsed;
  const problem = flagProblem(values);
  if (problem !== undefined) throw new UsageError(`agentchart check-model: ${problem} See agentchart check-model --help.`);
  const { model, server } = buildModel(values);
  let card: Awaited<ReturnType<typeof runCheckModel>>;
  try {
    card = await runCheckModel({ model, server, tries: Number(values.tries) });
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'MODEL_CONNECTION_FAILED') throw error;
    throw new Error(`agentchart check-model: stopped at the first connection failure: ${(error as Error).message}`);
  }
  out(formatReportCard(card));
  if (typeof values.out === 'string') {
    await writeFile(values.out, `${JSON.stringify(card, null, 2)}\n`);
    out(`report card written to ${values.out}\n`);
  }
  return 0;
}

function flagProblem(values: Record<string, string | boolean | undefined>): string | undefined {
  if (values.provider !== 'ollama' && values.provider !== 'openai') return '--provider must be ollama or openai.';
  if (typeof values.model !== 'string' || values.model.trim() === '') return '--model names the model as the server knows it, e.g. qwen3:8b.';
  const tries = Number(values.tries);
  if (!Number.isInteger(tries) || tries < 1 || tries > 100) return `--tries must be a whole number from 1 to 100, got ${String(values.tries)}.`;
  if (values.provider === 'ollama' && values['base-url'] !== undefined) return '--base-url is for --provider openai; Ollama takes --host.';
  if (values.provider === 'openai' && values.host !== undefined) return '--host is for --provider ollama; OpenAI-compatible servers take --base-url.';
  if (values['timeout-ms'] !== undefined && !(Number(values['timeout-ms']) > 0)) return '--timeout-ms must be a positive number.';
  return undefined;
}

function buildModel(values: Record<string, string | boolean | undefined>): { model: ChatModel; server: string } {
  const timeoutMs = values['timeout-ms'] === undefined ? undefined : Number(values['timeout-ms']);
  const name = values.model as string;
  if (values.provider === 'ollama') {
    const host = resolveOllamaHost(values.host as string | undefined);
    return { model: ollama({ model: name, host, ...(timeoutMs ? { timeoutMs } : {}) }), server: host };
  }
  const baseURL = values['base-url'] as string | undefined;
  const model = openai({
    model: name,
    ...(baseURL ? { baseURL } : {}),
    ...(values.compat ? { compat: values.compat as 'openai' } : {}),
    ...(timeoutMs ? { timeoutMs } : {}),
  });
  return { model, server: baseURL ?? process.env.OPENAI_BASE_URL ?? 'https://api.openai.com/v1' };
}
