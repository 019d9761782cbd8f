/** The heap in use after two full collections (run with `node --expose-gc`, as `pnpm bench` does). */
export function heapUsed(): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('Run with node --expose-gc (pnpm bench does).');
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}
