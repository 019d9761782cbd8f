import type { ChatModel } from '@agentchart/core';
import { tap } from 'rxjs';
import { type Scenario, scenarios as allScenarios } from './scenarios.js';

/** One scenario's figures over its tries. */
export interface ScenarioReport {
  name: string;
  description: string;
  tries: number;
  passed: number;
  /** passed / tries, 0..1. */
  passRate: number;
  latencyMs: { median: number; max: number };
  /** Average tokens per try, as the server reported them. */
  tokens: { input: number; output: number };
  /** One line per try: `pass` or `fail`, and what was seen. */
  results: Array<{ passed: boolean; detail: string; latencyMs: number }>;
}

/** The whole report card, as printed and as written to JSON. */
export interface ReportCard {
  provider: string;
  model: string;
  server: string;
  tries: number;
  startedAt: string;
  scenarios: ScenarioReport[];
  overall: { tries: number; passed: number; passRate: number };
}

/** What `runCheckModel` takes. */
export interface CheckModelOptions {
  model: ChatModel;
  /** Where the server is, for the report (host or base URL). */
  server: string;
  /** Tries per scenario (default 3). */
  tries?: number;
  /** The scenarios to run (default: all, in order). */
  scenarios?: readonly Scenario[];
  /** Told after each try, e.g. to print progress. */
  onTry?: (scenario: string, attempt: number, passed: boolean) => void;
  signal?: AbortSignal;
}

/** The model errors after which no scenario can tell anything about the model: the server is not there. */
const UNREACHABLE = new Set(['MODEL_CONNECTION_FAILED']);

/**
 * Runs every scenario `tries` times against a model and gathers the report
 * card: pass rate, latency and tokens per scenario. A try that throws (the
 * server failed) counts as failed with the error's message. When the server
 * cannot be reached, it stops at once and rejects with that `ModelError`
 * (`MODEL_CONNECTION_FAILED`): a report card of a server that is not there
 * would say nothing about the model.
 *
 * @example
 * const card = await runCheckModel({ model: ollama({ model: 'qwen3:8b' }), server: 'http://127.0.0.1:11434', tries: 5 });
 * console.log(formatReportCard(card));
 */
export async function runCheckModel(options: CheckModelOptions): Promise<ReportCard> {
  const tries = options.tries ?? 3;
  const signal = options.signal ?? new AbortController().signal;
  const startedAt = new Date().toISOString();
  const reports: ScenarioReport[] = [];
  let unreachable: Error | undefined;
  const model: ChatModel = {
    provider: options.model.provider,
    modelName: options.model.modelName,
    stream: (request) =>
      options.model.stream(request).pipe(
        tap({
          error: (error: unknown) => {
            if (error instanceof Error && UNREACHABLE.has(String((error as { code?: unknown }).code))) unreachable ??= error;
          },
        }),
      ),
  };
  for (const scenario of options.scenarios ?? allScenarios) {
    const results: ScenarioReport['results'] = [];
    let input = 0;
    let output = 0;
    for (let attempt = 1; attempt <= tries; attempt++) {
      const started = performance.now();
      let passed = false;
      let detail: string;
      try {
        const outcome = await scenario.run(model, signal);
        passed = outcome.passed;
        detail = outcome.detail;
        input += outcome.usage.inputTokens;
        output += outcome.usage.outputTokens;
      } catch (error) {
        detail = `error: ${error instanceof Error ? error.message : String(error)}`;
      }
      if (unreachable !== undefined) throw unreachable;
      results.push({ passed, detail, latencyMs: Math.round(performance.now() - started) });
      options.onTry?.(scenario.name, attempt, passed);
    }
    const latencies = results.map((result) => result.latencyMs).sort((a, b) => a - b);
    const passedCount = results.filter((result) => result.passed).length;
    reports.push({
      name: scenario.name,
      description: scenario.description,
      tries,
      passed: passedCount,
      passRate: passedCount / tries,
      latencyMs: { median: latencies[Math.floor((latencies.length - 1) / 2)] ?? 0, max: latencies.at(-1) ?? 0 },
      tokens: { input: Math.round(input / tries), output: Math.round(output / tries) },
      results,
    });
  }
  const passed = reports.reduce((sum, report) => sum + report.passed, 0);
  const total = reports.length * tries;
  return {
    provider: options.model.provider,
    model: options.model.modelName,
    server: options.server,
    tries,
    startedAt,
    scenarios: reports,
    overall: { tries: total, passed, passRate: total === 0 ? 0 : passed / total },
  };
}
