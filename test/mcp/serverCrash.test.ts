import { fileURLToPath } from 'node:url';
import { createAgent } from '@agentchart/actors';
import { mcpServer } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';

const crashingServer = fileURLToPath(new URL('./fixtures/crashingServer.mjs', import.meta.url));

describe('a server that dies mid-call', () => {
  it('the call gets a clear error result, the run goes on, and the next call starts the server again', async () => {
    const server = mcpServer({ name: 'crashing', command: process.execPath, args: [crashingServer] });
    const model = scriptedModel([
      { toolCalls: [{ name: 'pid', arguments: {} }] },
      { toolCalls: [{ name: 'crash', arguments: {} }] },
      { toolCalls: [{ name: 'pid', arguments: {} }] },
      { text: 'Recovered.' },
    ]);
    const agent = createAgent({ name: 'survivor', model, toolSources: [server] });
    try {
      const run = agent.run('Crash it.');
      const result = await run.result;
      expect(result.stopReason).toBe('completed');
      const [before, crash, after] = result.toolCalls;
      expect(crash).toMatchObject({
        isError: true,
        content:
          'MCP server "crashing" closed the connection during the call of "crash" (it may have crashed), so its effect is unknown. The next call starts a new connection.',
      });
      expect(before?.isError).toBe(false);
      expect(after?.isError).toBe(false);
      expect(after?.content).not.toBe(before?.content); // a new process
    } finally {
      await agent.close();
    }
  });
});
