/** Two full collections (run with `node --expose-gc`, as `pnpm bench` does). */
export function collectGarbage(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('Run with node --expose-gc (pnpm bench does).');
  gc();
  gc();
}

/** The heap in use after two full collections. */
export function heapUsed(): number {
  collectGarbage();
  return process.memoryUsage().heapUsed;
}
