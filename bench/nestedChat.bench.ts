/**
 * G4: a nested chat as a resident participant (docs/group-chat.md, "Resident
 * participants"): an outer chat of ten rounds, round robin between `lead`
 * and the nested chat `team` (two agents, two rounds per run), so the team
 * speaks five times per outer run and each of its turns is a whole run of
 * the nested chat. Two variants: agents without tools (the nested chat's
 * turns are direct) and a nested agent that calls a tool each turn (its
 * turns take the actor path). Printed: process CPU time per outer run,
 * median of several interleaved runs after a warm-up, and the actors an
 * inspected outer run makes (one per participant for the run, one manager
 * for the nested chat's five runs).
 */
import { type GroupChat, createAgent, createGroupChat } from '@agentchart/actors';
import { defineTool } from '@agentchart/core';
import { scriptedModel } from '@agentchart/providers';
import { z } from 'zod';

const OUTER_ROUNDS = 10;
const RUNS = 300;

type Variant = 'direct' | 'tools';

function talker(name: string) {
  return createAgent({ name, model: scriptedModel(() => ({ text: `${name} says` }), { recordRequests: false }) });
}

function toolAgent(name: string) {
  const tool = defineTool({
    name: `note_${name}`,
    description: 'Takes a note.',
    parameters: z.object({ text: z.string() }),
    execute: ({ text }) => `noted: ${text}`,
  });
  const model = scriptedModel(
    (request) => (request.messages.at(-1)?.role === 'tool' ? { text: 'done' } : { toolCalls: [{ name: tool.name, arguments: { text: 'x' } }] }),
    { recordRequests: false },
  );
  return createAgent({ name, model, tools: [tool] });
}

function office(variant: Variant, inspect?: () => void): GroupChat {
  const team = createGroupChat({
    name: 'team',
    description: 'Researches and checks.',
    agents: [variant === 'tools' ? toolAgent('researcher') : talker('researcher'), talker('critic')],
    speakerSelection: 'round_robin',
    maxRounds: 2,
  });
  return createGroupChat({
    agents: [talker('lead'), team],
    speakerSelection: 'round_robin',
    maxRounds: OUTER_ROUNDS,
    ...(inspect === undefined ? {} : { inspect }),
  });
}

async function cpuPerOuterRun(variant: Variant): Promise<number> {
  const chat = office(variant);
  const cpuStart = process.cpuUsage();
  for (let run = 0; run < RUNS; run++) {
    const result = await chat.run('Research octopuses.').result;
    if (result.turns.length !== OUTER_ROUNDS || result.reason !== 'max-rounds') throw new Error(`benchmark chat went wrong: ${result.reason}`);
  }
  const cpu = process.cpuUsage(cpuStart);
  return (cpu.user + cpu.system) / RUNS;
}

async function actorsPerInspectedRun(variant: Variant): Promise<number> {
  let actors = 0;
  const chat = office(variant, (event?: { type: string }) => {
    if (event?.type === '@xstate.actor') actors += 1;
  });
  await chat.run('Research octopuses.').result;
  return actors;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

export async function runBenchmark(): Promise<void> {
  const variants: Variant[] = ['direct', 'tools'];
  for (const variant of variants) await cpuPerOuterRun(variant);
  const samples = new Map<Variant, number[]>(variants.map((variant) => [variant, []]));
  // Interleaved: noise from other work on the machine falls on every variant alike.
  for (let run = 0; run < 5; run++) for (const variant of variants) samples.get(variant)?.push(await cpuPerOuterRun(variant));
  for (const variant of variants) {
    console.log(
      `G4 an outer chat of ${OUTER_ROUNDS} rounds whose nested 2-agent chat speaks 5 times (${variant === 'direct' ? 'tool-less agents' : 'a nested agent with a tool'}): ` +
        `${median(samples.get(variant) ?? []).toFixed(0)} µs CPU per outer run (median of 5 runs); ` +
        `${await actorsPerInspectedRun(variant)} actors per inspected outer run`,
    );
  }
}
