/**
 * The floor under W1: a bare XState machine with the agent's actor topology
 * (a run-long model caller and tool runner as callback children, two events
 * into the root per tool step, one emitted event per state) and nothing else.
 * No tool validation, no transcript, no rules: what XState itself costs per
 * step on this machine, so W1's figure can be read against it.
 */
import { assign, createActor, fromCallback, sendTo, setup, emit } from 'xstate';

const model = fromCallback<{ type: 'call' }>(({ sendBack, receive }) => {
  receive(() => sendBack({ type: 'reply' }));
});
const tools = fromCallback<{ type: 'run' }>(({ sendBack, receive }) => {
  receive(() => void Promise.resolve(1).then(() => sendBack({ type: 'settled' })));
});
const m = setup({
  types: { context: {} as { step: number; max: number }, input: {} as { max: number } },
  actors: { model, tools },
}).createMachine({
  context: ({ input }) => ({ step: 0, max: input.max }),
  invoke: [{ id: 'model', src: 'model' }, { id: 'tools', src: 'tools' }],
  initial: 'thinking',
  states: {
    thinking: {
      entry: [assign({ step: ({ context }) => context.step + 1 }), sendTo('model', { type: 'call' }), emit({ type: 'x' })],
      on: { reply: [{ guard: ({ context }) => context.step > context.max, target: 'done' }, { target: 'acting' }] },
    },
    acting: { entry: [sendTo('tools', { type: 'run' }), emit({ type: 'y' })], on: { settled: 'thinking' } },
    done: { type: 'final' },
  },
});

export async function runBenchmark(): Promise<void> {
  const once = () =>
    new Promise<void>((resolve) => {
      const a = createActor(m, { input: { max: 20 } });
      a.on('*', () => {});
      a.subscribe({ complete: () => resolve() });
      a.start();
    });
  for (let i = 0; i < 100; i++) await once();
  const c = process.cpuUsage();
  for (let i = 0; i < 500; i++) await once();
  const u = process.cpuUsage(c);
  console.log(`bare XState, agent topology: ${((u.user + u.system) / 10000).toFixed(1)} µs CPU per tool step (10000 steps, 20 per run)`);
}
