import type { ReportCard } from './runCheckModel.js';

const percent = (rate: number) => `${Math.round(rate * 100)}%`;
const seconds = (ms: number) => (ms < 1000 ? `${ms} ms` : `${(ms / 1000).toFixed(1)} s`);

/**
 * The report card as a table for the terminal: one row per scenario (passes
 * over tries, pass rate, median and slowest latency, average tokens in and
 * out per try), the overall rate, then what each failed try saw.
 *
 * @example
 * process.stdout.write(formatReportCard(card));
 */
export function formatReportCard(card: ReportCard): string {
  const header = ['scenario', 'passed', 'rate', 'latency p50', 'max', 'tokens in', 'out'];
  const rows = card.scenarios.map((scenario) => [
    scenario.name,
    `${scenario.passed}/${scenario.tries}`,
    percent(scenario.passRate),
    seconds(scenario.latencyMs.median),
    seconds(scenario.latencyMs.max),
    String(scenario.tokens.input),
    String(scenario.tokens.output),
  ]);
  rows.push(['overall', `${card.overall.passed}/${card.overall.tries}`, percent(card.overall.passRate), '', '', '', '']);
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => (column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0)))
      .join('  ')
      .trimEnd();
  const failures = card.scenarios.flatMap((scenario) =>
    scenario.results.flatMap((result, index) => (result.passed ? [] : [`  ${scenario.name} #${index + 1}: ${result.detail}`])),
  );
  return [
    `check-model: ${card.provider} ${card.model} at ${card.server}, ${card.tries} ${card.tries === 1 ? 'try' : 'tries'} per scenario`,
    '',
    line(header),
    ...rows.slice(0, -1).map(line),
    '-'.repeat(widths.reduce((sum, width) => sum + width + 2, -2)),
    line(rows.at(-1) as string[]),
    ...(failures.length > 0 ? ['', 'failed tries:', ...failures] : []),
    '',
  ].join('\n');
}
