/**
 * Shared state: writes per second through `ctx.state.update` (each write is
 * one event to the shared-state actor and one emitted change), with and
 * without a zod state schema; heap retained per idle shared-state actor.
 */
import { sharedStateHandle, sharedStateMachine } from '@agentchart/actors';
import { createActor } from 'xstate';
import { z } from 'zod';

const WRITES = 100_000;
const ACTORS = 10_000;

function writesPerSecond(schema?: z.ZodType<Record<string, unknown>>): number {
  const actor = createActor(sharedStateMachine, { input: { initial: { count: 0, label: 'x' } } }).start();
  const state = sharedStateHandle(actor, { schema });
  for (let i = 0; i < 5_000; i++) state.update('count', (n) => (n as number) + 1); // warm-up
  const start = performance.now();
  for (let i = 0; i < WRITES; i++) state.update('count', (n) => (n as number) + 1);
  const seconds = (performance.now() - start) / 1000;
  actor.stop();
  return WRITES / seconds;
}

function heapPerActorBytes(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const before = process.memoryUsage().heapUsed;
  const actors = Array.from({ length: ACTORS }, (_, i) => createActor(sharedStateMachine, { input: { initial: { index: i } } }).start());
  gc?.();
  const after = process.memoryUsage().heapUsed;
  const bytes = (after - before) / actors.length;
  for (const actor of actors) actor.stop();
  return bytes;
}

export async function runBenchmark(): Promise<void> {
  const plain = writesPerSecond();
  const typed = writesPerSecond(z.object({ count: z.number().int(), label: z.string().optional() }));
  console.log(`state.update, no schema:   ${Math.round(plain).toLocaleString('en')} writes/s`);
  console.log(`state.update, zod schema:  ${Math.round(typed).toLocaleString('en')} writes/s`);
  console.log(`heap per idle shared-state actor: ${(heapPerActorBytes() / 1024).toFixed(1)} KiB (${ACTORS.toLocaleString('en')} actors)`);
}
