import type { AnyTool } from '@agentchart/core';
import type { Actor } from 'xstate';
import type { ToolSourceAgent } from '../agent/tools/agentToolSources.js';
import type { agentMachine } from '../agent/machine/agentMachine.js';
import { applySourceToolChange, diffSourceTools } from '../agent/tools/sourceToolChange.js';
import type { ToolSource } from '../agent/tools/toolSource.js';
import type { LoadedSourceTools } from '../agent/tools/toolSourceSet.js';
import type { ChatRuntime } from './chatRuntime.js';

/** The agent speaking now, when it is an agent's turn. */
export interface SpeakingAgent {
  readonly name: string;
  readonly actor: Actor<typeof agentMachine>;
}

/** Each source agent's tools by source, as the chat last loaded them. */
export type LoadedChatTools = ReadonlyMap<string, LoadedSourceTools>;

/**
 * Loads the tool sources of every agent of the chat that has some (the
 * first load connects), before the chat's first turn, and builds each such
 * agent's turn, so that a tool named like a handoff tool or rules naming a
 * tool no source offers fail the run before anyone speaks. Undefined when no
 * participant has tool sources (nothing to wait for).
 *
 * @example
 * const loading = loadChatToolSources(runtime, signal);
 * if (loading) await loading; // now every member's `turn` has its sources' tools
 */
export function loadChatToolSources(runtime: ChatRuntime, signal: AbortSignal): Promise<LoadedChatTools> | undefined {
  if (runtime.toolSourceAgents.size === 0) return undefined;
  return (async () => {
    const entries = [...runtime.toolSourceAgents];
    const lists = await Promise.all(entries.map(([, entry]) => entry.load(signal)));
    const loaded = new Map(entries.map(([name], index) => [name, lists[index] as LoadedSourceTools]));
    for (const [name] of entries) {
      const member = runtime.members.get(name);
      if (member?.kind === 'agent') void member.turn;
    }
    return loaded;
  })();
}

/**
 * Loads the tool sources of the agent a resumed chat stands in the turn of,
 * when it has some: its persisted run is restored against the tools they
 * offer, so they must be loaded first (the chat loads every agent's again
 * when it starts). Resolves at once for any other participant.
 *
 * @example
 * await loadSpeakerToolSources(runtime, checkpoint.waiting.speaker); // then the turn can be checked
 */
export async function loadSpeakerToolSources(runtime: ChatRuntime, speaker: string | undefined, signal?: AbortSignal): Promise<void> {
  const entry = speaker === undefined ? undefined : runtime.toolSourceAgents.get(speaker);
  if (entry !== undefined) await entry.load(signal);
}

/**
 * Follows the chat's source agents' list changes while the chat runs, as an
 * agent's own run follows them (`followToolSources`): a change is loaded
 * (which also gives the agent's later turns the new list), and when that
 * agent is speaking it reaches its turn's live tool list — the next model
 * request of the turn sees it, a `tools.changed` event with `callId`
 * `source:<name>` reports it, and a removed tool its rules name has the rules
 * checked again (`TOOL_SOURCE_RULES_BROKEN` fails the turn instead of a
 * deadlock). When the agent's new list cannot make an agent (its rules name a
 * removed tool), its later turns fail with that error (`AgentTurnSetup.unusable`)
 * until a list it can take arrives. Returns the unsubscribe.
 *
 * @example
 * const stop = followChatToolSources(runtime, loaded, speakingAgent);
 */
export function followChatToolSources(runtime: ChatRuntime, loaded: LoadedChatTools, speaking: () => SpeakingAgent | undefined): () => void {
  const stops = [...runtime.toolSourceAgents].map(([name, entry]) => follow(name, entry));

  function follow(agentName: string, entry: ToolSourceAgent): () => void {
    const bySource = loaded.get(agentName)?.bySource ?? new Map<string, readonly AnyTool[]>();
    const current = new Map([...bySource].map(([source, tools]) => [source, new Map(tools.map((tool) => [tool.name, tool]))]));
    let queue = Promise.resolve();
    const apply = async (source: ToolSource) => {
      let next: readonly AnyTool[];
      try {
        // The whole set, so the agent's next turns are built with the new list (a failure is kept as `entry.loadError`).
        next = (await entry.load()).bySource.get(source.name) ?? [];
      } catch {
        try {
          next = await source.loadTools();
        } catch {
          return; // the source is unreachable now: its calls fail with that error, the list stays
        }
      }
      const diff = diffSourceTools(current.get(source.name) ?? new Map<string, AnyTool>(), next);
      if (diff === undefined) return;
      current.set(source.name, diff.after);
      const speaker = speaking();
      if (speaker === undefined || speaker.name !== agentName || speaker.actor.getSnapshot().status !== 'active') return;
      applySourceToolChange(speaker.actor, source.name, diff);
    };
    return entry.sources.onToolsChanged((source) => {
      queue = queue.then(() => apply(source));
      return queue;
    });
  }

  return () => {
    for (const stop of stops) stop();
  };
}
