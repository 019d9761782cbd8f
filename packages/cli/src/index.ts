export { type CliOptions, runCli } from './runCli.js';
export type { ExampleSource } from './command.js';
export { type CheckModelOptions, type ReportCard, type ScenarioReport, runCheckModel } from './checkModel/runCheckModel.js';
export { formatReportCard } from './checkModel/formatReportCard.js';
