// `@agentchart/cli/diagrams`: the machines a file or a script holds, as `agentchart diagram` finds them (needs @agentchart/inspect).
export { type NamedGraph, collectDiagrams } from './diagram/collectDiagrams.js';
export type { ExampleSource } from './command.js';
