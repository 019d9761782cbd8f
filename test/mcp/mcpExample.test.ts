import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const runner = fileURLToPath(new URL('../../packages/examples/src/runExample.ts', import.meta.url));

describe('pnpm example mcp', () => {
  it('runs an agent with rules, a prefix, an approval and a list change over a local MCP server', { timeout: 60_000 }, async () => {
    const { stdout } = await promisify(execFile)(process.execPath, ['--import', 'tsx', runner, 'mcp'], { timeout: 50_000 });
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(
      'tools from MCP server "notes": notes__search_notes, notes__read_note, notes__delete_note (destructive), notes__open_archive',
    );
    expect(stdout).toContain(
      '⛔ notes__read_note refused by the init rule: the first tool call must be one of: notes__search_notes (allowed now: notes__search_notes)',
    );
    expect(stdout).toContain('✋ notes__delete_note({"id":"n3"}) waits for approval');
    expect(stdout).toContain('✓ notes__delete_note → Deleted n3.');
    expect(stdout).toContain('✓ notes__read_archive → The 2024 protocol used HTTP with SSE.');
    expect(lines.at(-2)).toBe('result (completed): Deleted the old draft n3; the archive says the 2024 protocol used HTTP with SSE.');
  });
});
