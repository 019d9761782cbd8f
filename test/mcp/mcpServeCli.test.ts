import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createAgent } from '@agentchart/actors';
import { mcpServer } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../', import.meta.url));
const bin = join(root, 'packages/examples/bin/agentchart.mjs');
const team = join(root, 'test/mcp/fixtures/team.ts');

describe('agentchart mcp serve --module', () => {
  it("serves a module's agents and chats over stdio to an MCP client", { timeout: 60_000 }, async () => {
    const served = mcpServer({ name: 'team', command: process.execPath, args: [bin, 'mcp', 'serve', '--module', team], cwd: root });
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'greeter', arguments: { input: 'Hi' } },
          { name: 'desk', arguments: { input: 'Write.' } },
        ],
      },
      { text: 'Done.' },
    ]);
    const agent = createAgent({ name: 'client', model, toolSources: [served] });
    try {
      const result = await agent.run('Use the team.').result;
      expect(model.requests[0]?.tools.map((tool) => tool.name)).toEqual(['greeter', 'desk']);
      expect(result.toolCalls.map((record) => record.content)).toEqual(['Hello from greeter.', 'An edited draft.']);
    } finally {
      await agent.close();
    }
  });
});
