/**
 * G3: chat turns that take the actor path (docs/performance.md, "Resident
 * agents"): 4 agents with one tool each, round robin, 16 turns per chat
 * (4 rounds each); every turn is a tool call and then an answer, so each
 * turn is two model calls and one tool batch. Three variants: agents with a
 * tool (fused steps), the same chats inspected (every step takes the full
 * path), and agents whose tool needs approval for nothing but is screened
 * (`approval: () => false`: every batch is screened). Printed: process
 * CPU time per turn, median of several runs after a warm-up (creating the
 * chats is not counted). A/B it against another build by bundling both
 * (`bench/run.ts` writes `bench/.out/groupChatTools.mjs`) and running them
 * in turn.
 */
import { type GroupChat, createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

const CHATS = 200;
const ROUNDS = 16;
const NAMES = ['planner', 'researcher', 'critic', 'writer'];

type Variant = 'tools' | 'inspected' | 'screened';

function toolChat(variant: Variant): GroupChat {
  const agents = NAMES.map((name) => {
    const tool = defineTool({
      name: `note_${name}`,
      description: 'Takes a note.',
      parameters: z.object({ text: z.string() }),
      ...(variant === 'screened' ? { approval: () => false } : {}),
      execute: ({ text }) => `noted: ${text}`,
    });
    // A tool call, then an answer once the tool's result is in the request.
    const model = scriptedModel(
      (request) => (request.messages.at(-1)?.role === 'tool' ? { text: 'done' } : { toolCalls: [{ name: tool.name, arguments: { text: 'x' } }] }),
      { recordRequests: false },
    );
    return createAgent({ name, model, instructions: `You are the ${name}.`, tools: [tool] });
  });
  return createGroupChat({
    agents,
    speakerSelection: 'round_robin',
    maxRounds: ROUNDS,
    ...(variant === 'inspected' ? { inspect: () => {} } : {}),
  });
}

async function runChats(variant: Variant): Promise<number> {
  const chats = Array.from({ length: CHATS }, () => toolChat(variant));
  const cpuStart = process.cpuUsage();
  const results = await Promise.all(chats.map((chat) => chat.run('Plan the launch.').result));
  const cpu = process.cpuUsage(cpuStart);
  const turns = results.reduce((sum, result) => sum + result.rounds, 0);
  if (turns !== CHATS * ROUNDS || results.some((result) => result.messages.length !== 1 + 3 * ROUNDS)) {
    throw new Error(`benchmark chats went wrong: ${turns} turns`);
  }
  return (cpu.user + cpu.system) / turns;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export async function runBenchmark(): Promise<void> {
  const variants: Variant[] = ['tools', 'inspected', 'screened'];
  for (let round = 0; round < 2; round++) for (const variant of variants) await runChats(variant);
  const samples = new Map<Variant, number[]>(variants.map((variant) => [variant, []]));
  // Interleaved: noise from other work on the machine falls on every variant alike.
  for (let run = 0; run < 7; run++) for (const variant of variants) samples.get(variant)?.push(await runChats(variant));
  for (const variant of variants) {
    console.log(
      `G3 ${CHATS} chats × ${ROUNDS} turns, 4 agents with a tool (${variant}), each turn a tool call and an answer: ` +
        `${median(samples.get(variant) ?? []).toFixed(0)} µs CPU per turn (median of 7 runs)`,
    );
  }
}
