/**
 * The floor under W1: bare XState machines that do a tool step's transitions
 * and nothing else — no tool validation, no transcript, no rules.
 * - "agent topology": the agent's shape (a run-long model caller and tool
 *   runner as callback children, a command out to each and an event back
 *   from each per tool step, one emitted event per state).
 * - "no children": the least any XState machine with a `thinking` and an
 *   `acting` state can do: two events into the root per step, sent by its
 *   own actions.
 * Read W1 against these plus `stepWork` (the step's own work without
 * actors): what XState itself costs per step on this machine.
 */
import { type AnyStateMachine, assign, createActor, emit, fromCallback, sendTo, setup } from 'xstate';

const STEPS_PER_RUN = 20;
const RUNS = 500;

const model = fromCallback<{ type: 'call' }>(({ sendBack, receive }) => {
  receive(() => sendBack({ type: 'reply' }));
});
const tools = fromCallback<{ type: 'run' }>(({ sendBack, receive }) => {
  receive(() => void Promise.resolve(1).then(() => sendBack({ type: 'settled' })));
});

type FloorContext = { step: number; max: number };
const types = { context: {} as FloorContext, input: {} as { max: number } };

const agentTopology = setup({ types, actors: { model, tools } }).createMachine({
  context: ({ input }) => ({ step: 0, max: input.max }),
  invoke: [
    { id: 'model', src: 'model' },
    { id: 'tools', src: 'tools' },
  ],
  initial: 'thinking',
  states: {
    thinking: {
      entry: [assign({ step: ({ context }) => context.step + 1 }), sendTo('model', { type: 'call' }), emit({ type: 'thinking' })],
      on: { reply: [{ guard: ({ context }) => context.step > context.max, target: 'done' }, { target: 'acting' }] },
    },
    acting: { entry: [sendTo('tools', { type: 'run' }), emit({ type: 'acting' })], on: { settled: 'thinking' } },
    done: { type: 'final' },
  },
});

const noChildren = setup({ types }).createMachine({
  context: ({ input }) => ({ step: 0, max: input.max }),
  initial: 'thinking',
  states: {
    thinking: {
      entry: [
        assign({ step: ({ context }) => context.step + 1 }),
        ({ self }) => queueMicrotask(() => self.send({ type: 'reply' })),
        emit({ type: 'thinking' }),
      ],
      on: { reply: [{ guard: ({ context }) => context.step > context.max, target: 'done' }, { target: 'acting' }] },
    },
    acting: {
      entry: [({ self }) => void Promise.resolve(1).then(() => self.send({ type: 'settled' })), emit({ type: 'acting' })],
      on: { settled: 'thinking' },
    },
    done: { type: 'final' },
  },
});

function runOnce(machine: AnyStateMachine): Promise<void> {
  return new Promise<void>((resolve) => {
    const actor = createActor(machine, { input: { max: STEPS_PER_RUN } });
    actor.on('*', () => undefined);
    actor.subscribe({ complete: () => resolve() });
    actor.start();
  });
}

async function perStep(machine: AnyStateMachine): Promise<{ wall: number; cpu: number }> {
  for (let i = 0; i < RUNS / 5; i++) await runOnce(machine);
  const started = performance.now();
  const cpuStart = process.cpuUsage();
  for (let i = 0; i < RUNS; i++) await runOnce(machine);
  const cpu = process.cpuUsage(cpuStart);
  const steps = RUNS * STEPS_PER_RUN;
  return { wall: ((performance.now() - started) * 1000) / steps, cpu: (cpu.user + cpu.system) / steps };
}

export async function runBenchmark(): Promise<void> {
  for (const [name, machine] of [
    ['agent topology (2 children)', agentTopology],
    ['no children', noChildren],
  ] as const) {
    const { wall, cpu } = await perStep(machine);
    console.log(
      `bare XState, ${name}: ${wall.toFixed(1)} µs wall, ${cpu.toFixed(1)} µs CPU per tool step (${RUNS * STEPS_PER_RUN} steps, ${STEPS_PER_RUN} per run)`,
    );
  }
}
