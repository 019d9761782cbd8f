import { readFile, readdir } from 'node:fs/promises';
import { docMermaidSources } from '@agentchart/examples';
import { describe, expect, it, vi } from 'vitest';

const IMAGES = new URL('../../docs/images/', import.meta.url);

describe('docs/images', () => {
  it('holds the Mermaid sources of the machines as they are now, and no others', async () => {
    // The examples run to find their machines; what they print is not this test's business.
    const quiet = [vi.spyOn(console, 'log').mockImplementation(() => {}), vi.spyOn(console, 'info').mockImplementation(() => {})];
    const generated = await docMermaidSources().finally(() => quiet.forEach((spy) => spy.mockRestore()));
    const committed = new Map<string, string>();
    for (const file of (await readdir(IMAGES)).filter((name) => name.endsWith('.mmd'))) {
      committed.set(file, await readFile(new URL(file, IMAGES), 'utf8'));
    }
    const names = [...new Set([...generated.keys(), ...committed.keys()])].sort();
    const outOfDate = names.filter((name) => generated.get(name) !== committed.get(name));
    expect(
      outOfDate,
      `docs/images does not match the machines (${outOfDate.join(', ')}): run \`npx pnpm@12.4.2 docs:images\` and commit the result.`,
    ).toEqual([]);
    expect(generated.size).toBeGreaterThan(10);
  });
});
