import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { RunEvent } from '@agentchart/core';
import type { AgentRun } from '@agentchart/actors';
import { firstValueFrom, toArray } from 'rxjs';

const require = createRequire(import.meta.url);

/** `@modelcontextprotocol/server-everything` as installed: its bin, run by this Node over stdio. */
export function everythingServer(): { command: string; args: string[] } {
  const packageJson = require.resolve('@modelcontextprotocol/server-everything/package.json');
  const bin = (require(packageJson) as { bin: Record<string, string> }).bin['mcp-server-everything'] as string;
  return { command: process.execPath, args: [join(dirname(packageJson), bin), 'stdio'] };
}

/** A run's events, collected until it ends. */
export function collectEvents(run: AgentRun): Promise<RunEvent[]> {
  return firstValueFrom(run.events$.pipe(toArray()));
}
