/**
 * MCP tools under tool rules: `pnpm example mcp`. A local MCP server (a child
 * process over stdio, src/mcp/notesServer.ts) offers note tools; the agent
 * sees them with the prefix `notes__`, and its rules, approvals and toolChoice
 * name them so. The rules say: search first; after a search, read; a read may
 * be followed by anything. `delete_note` is marked destructive by the server,
 * so `approval: 'destructive'` makes it wait for a person. `open_archive`
 * makes the server add a tool mid-run, which the next model request offers.
 */
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createAgent } from '@agentchart/actors';
import { rules } from '@agentchart/core';
import { mcpServer, mcpToolOrigin } from '@agentchart/mcp';
import { scriptedModel } from '@agentchart/providers';
import { printEvents } from '../printEvents.js';

const tsx = pathToFileURL(createRequire(import.meta.url).resolve('tsx/esm')).href;
const notes = mcpServer({
  name: 'notes',
  command: process.execPath,
  args: ['--import', tsx, fileURLToPath(new URL('../mcp/notesServer.ts', import.meta.url))],
  prefix: true,
  approval: 'destructive',
  timeoutMs: 10_000,
});

const model = scriptedModel([
  { toolCalls: [{ name: 'notes__read_note', arguments: { id: 'n1' } }] }, // refused: search comes first
  { toolCalls: [{ name: 'notes__search_notes', arguments: { query: 'draft' } }] },
  { toolCalls: [{ name: 'notes__read_note', arguments: { id: 'n3' } }] },
  { toolCalls: [{ name: 'notes__delete_note', arguments: { id: 'n3' } }] }, // waits for approval
  { toolCalls: [{ name: 'notes__open_archive', arguments: {} }] },
  { toolCalls: [{ name: 'notes__read_archive', arguments: { id: 'a1' } }] }, // added by the server mid-run
  { text: 'Deleted the old draft n3; the archive says the 2024 protocol used HTTP with SSE.' },
]);

const agent = createAgent({
  name: 'librarian',
  model,
  instructions: 'Tidy the notes.',
  toolSources: [notes],
  toolRules: [rules.init('notes__search_notes'), rules.child('notes__search_notes', ['notes__read_note'])],
});

try {
  const tools = await agent.loadTools();
  console.log(
    `tools from MCP server "notes": ${tools.map((tool) => `${tool.name}${tool.annotations?.destructiveHint ? ' (destructive)' : ''}`).join(', ')}`,
  );
  console.log(`(the model sees notes__read_note; the server calls it ${mcpToolOrigin(tools[1]!)?.mcpToolName})\n`);
  const run = agent.run('Delete the old draft, then check the archive.');
  printEvents(run.events$);
  run.events$.subscribe((event) => {
    if (event.type === 'approval.requested') run.approve(event.id); // a person says yes
  });
  const result = await run.result;
  console.log(`\nresult (${result.stopReason}): ${result.text}`);
} finally {
  await agent.close();
}
