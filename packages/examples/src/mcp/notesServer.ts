/**
 * A small MCP server over stdio, built with the SDK, for `pnpm example mcp`:
 * notes to search, read and delete (destructive), and an archive whose tool
 * appears only after `open_archive` (the server announces the list change).
 */
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { z } from 'zod';

const notes = new Map([
  ['n1', 'MCP servers can announce tool list changes.'],
  ['n2', 'Tool rules compile against the names the model sees.'],
  ['n3', 'Old draft: delete me.'],
]);
const archived = new Map([['a1', 'The 2024 protocol used HTTP with SSE.']]);

const server = new McpServer({ name: 'notes', version: '1.0.0' }, { capabilities: { tools: { listChanged: true } } });
const text = (value: string) => ({ content: [{ type: 'text' as const, text: value }] });

server.registerTool(
  'search_notes',
  {
    description: 'Finds notes whose text contains the query; returns their ids.',
    inputSchema: { query: z.string() },
    annotations: { readOnlyHint: true },
  },
  async ({ query }) => {
    const ids = [...notes].filter(([, body]) => body.toLowerCase().includes(query.toLowerCase())).map(([id]) => id);
    return { ...text(ids.length > 0 ? `Matching notes: ${ids.join(', ')}` : 'No note matches.'), structuredContent: { ids } };
  },
);
server.registerTool(
  'read_note',
  { description: 'Reads a note by id.', inputSchema: { id: z.string() }, annotations: { readOnlyHint: true } },
  async ({ id }) => {
    const body = notes.get(id);
    return body === undefined ? { isError: true, ...text(`No note "${id}". Search first to get ids.`) } : text(body);
  },
);
server.registerTool(
  'delete_note',
  { description: 'Deletes a note for good.', inputSchema: { id: z.string() }, annotations: { readOnlyHint: false, destructiveHint: true } },
  async ({ id }) => (notes.delete(id) ? text(`Deleted ${id}.`) : { isError: true, ...text(`No note "${id}".`) }),
);
let archiveOpen = false;
server.registerTool(
  'open_archive',
  { description: 'Makes the archive readable (adds read_archive).', inputSchema: {}, annotations: { readOnlyHint: true } },
  async () => {
    if (!archiveOpen) {
      archiveOpen = true;
      server.registerTool(
        'read_archive',
        { description: 'Reads an archived note by id.', inputSchema: { id: z.string() }, annotations: { readOnlyHint: true } },
        async ({ id }) => text(archived.get(id) ?? `No archived note "${id}".`),
      );
    }
    return text('The archive is open: read_archive is available.');
  },
);

await server.connect(new StdioServerTransport());
