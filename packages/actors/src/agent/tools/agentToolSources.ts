import type { ErrorInfo } from '@agentchart/core';
import type { LoadedSourceTools, ToolSourceSet } from './toolSourceSet.js';

/**
 * What a group chat needs of an agent with tool sources (`createAgent({ toolSources })`): its
 * instructions (to describe it before its sources are loaded), its sources (to follow their list
 * changes) and `load`, which loads them, so that the agent's configuration has their tools from then on.
 */
export interface ToolSourceAgent {
  readonly instructions: string | undefined;
  readonly sources: ToolSourceSet;
  load(signal?: AbortSignal): Promise<LoadedSourceTools>;
  /** Why the last load failed (a list the agent's rules cannot take, two sources offering one name); undefined after a good one. */
  readonly loadError: ErrorInfo | undefined;
}
