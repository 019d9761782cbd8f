import { createAgent } from '@agentchart/actors';
import { type OpenApiDocument, toolsFromOpenAPI } from '@agentchart/tools';
import type { AnyTool, ToolContext, ToolResultValue } from '@agentchart/core';
import { createTraceRecorder, memorySink } from '@agentchart/inspect';
import { scriptedModel } from '@agentchart/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startHttpServer } from '../openapi/httpTestServer.js';

const API_KEY = 'real-api-key-0123456789';
const TOKEN = 'bearer-token-abcdefghij';

function searchApi(serverUrl: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'Search', version: '1' },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: {
        queryKey: { type: 'apiKey', in: 'query', name: 'api_key' },
        headerKey: { type: 'apiKey', in: 'header', name: 'X-Api-Key' },
        bearer: { type: 'http', scheme: 'bearer' },
      },
    },
    paths: {
      '/search': {
        get: {
          operationId: 'search',
          security: [{ queryKey: [] }],
          parameters: [
            { name: 'filter', in: 'query', schema: { type: 'object' } },
            { name: 'range', in: 'query', schema: { type: 'object', properties: { from: { type: 'integer' }, to: { type: 'integer' } } } },
            { name: 'x-api-key', in: 'query', schema: { type: 'string' } },
            { name: 'TENANT', in: 'header', schema: { type: 'string' } },
            { name: 'q', in: 'query', schema: { type: 'string' } },
          ],
          responses: { '200': { description: 'ok' } },
        },
      },
      '/me': { get: { operationId: 'whoami', security: [{ bearer: [] }], responses: { '200': { description: 'ok' } } } },
      '/big': { get: { operationId: 'big', security: [], responses: { '200': { description: 'ok' } } } },
    },
  };
}

const call = async (tool: AnyTool, args: Record<string, unknown>) =>
  tool.execute(args as never, { signal: new AbortController().signal } as unknown as ToolContext) as Promise<
    ToolResultValue<{ body: unknown; cut?: true }>
  >;

describe('toolsFromOpenAPI against hostile arguments', () => {
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  let tools: Map<string, AnyTool>;
  beforeAll(async () => {
    server = await startHttpServer((request, response) => {
      if (request.url.startsWith('/me')) {
        return sendJson(response, 401, { error: `Invalid credentials: ${request.headers.authorization} (key ${TOKEN})` });
      }
      if (request.url.startsWith('/big')) {
        // An endless body: only a reader that stops can finish.
        response.writeHead(200, { 'content-type': 'text/plain' });
        const chunk = 'x'.repeat(64 * 1024);
        const pump = () => {
          while (response.write(chunk)) {
            /* fill the socket */
          }
        };
        response.on('drain', pump);
        response.on('error', () => undefined);
        pump();
        return undefined;
      }
      return sendJson(response, 200, { url: request.url, echo: `your key is ${API_KEY}` });
    });
    tools = new Map(
      toolsFromOpenAPI(searchApi(server.url), {
        query: { tenant: 'acme' },
        auth: { queryKey: API_KEY, bearer: TOKEN },
        maxResponseBytes: 256 * 1024,
      }).map((tool) => [tool.name, tool]),
    );
  });
  afterAll(() => server.close());

  it("the repro: a free-form query object cannot duplicate the caller's parameter or set a credential", async () => {
    const search = tools.get('search') as AnyTool;
    const before = server.requests.length;
    await expect(call(search, { filter: { tenant: 'evil', admin: 'true', api_key: 'evil' } })).rejects.toThrow(
      'GET /search: the arguments would send the query parameter "tenant", which only the caller sets (a fixed parameter or a credential). Leave it out of the arguments.',
    );
    await expect(call(search, { filter: { API_KEY: 'evil' } })).rejects.toThrow('the query parameter "API_KEY", which only the caller sets');
    await expect(call(search, { filter: { Authorization: 'x' } })).rejects.toThrow('"Authorization", which only the caller sets');
    expect(server.requests.length).toBe(before); // nothing was sent
    const result = await call(search, { filter: { color: 'red' }, q: 'shoes' });
    expect(server.requests.at(-1)?.url).toBe(`/search?tenant=acme&color=red&q=shoes&api_key=${API_KEY}`);
    expect(JSON.stringify(result)).not.toContain(API_KEY);
  });

  it('reserved names are not asked of the model in any location, and object parameters say which keys they take', () => {
    const schema = (tools.get('search') as AnyTool).spec.parameters as { properties: Record<string, Record<string, unknown>> };
    // x-api-key (a credential's name, here as a query parameter) and TENANT (the fixed query, here as a header) are the caller's.
    expect(Object.keys(schema.properties)).toEqual(['filter', 'range', 'q']);
    expect(schema.properties.filter?.additionalProperties).toBe(true);
    expect(schema.properties.range?.additionalProperties).toBe(false);
  });

  it('an object with declared properties takes no other keys', () => {
    const search = tools.get('search') as AnyTool;
    expect(search.parameters.safeParse({ range: { from: 1, to: 2 } }).success).toBe(true);
    expect(search.parameters.safeParse({ range: { from: 1, tenant: 'evil' } }).success).toBe(false);
  });

  it('a credential echoed in a response or an error is redacted before the model, events or traces see it', async () => {
    const sink = memorySink();
    const recorder = createTraceRecorder({ sink });
    const model = scriptedModel([
      {
        toolCalls: [
          { name: 'whoami', arguments: {} },
          { name: 'search', arguments: { q: 'x' } },
        ],
      },
      { text: 'done' },
    ]);
    const run = createAgent({ name: 'api', model, tools: [...tools.values()] }).run('Go.', { inspect: recorder.inspect });
    recorder.recordRun(run);
    const events: unknown[] = [];
    run.events$.subscribe((event) => events.push(event));
    const result = await run.result;
    await recorder.close();
    const [whoami, search] = result.toolCalls;
    expect(whoami?.isError).toBe(true);
    expect(whoami?.content).toBe('HTTP 401 Unauthorized\n{"error":"Invalid credentials: [redacted] (key [redacted])"}');
    expect(search?.content).toContain('"echo":"your key is [redacted]"');
    const everything = JSON.stringify(events) + JSON.stringify(result) + JSON.stringify(model.requests) + sink.toNdjson();
    for (const secret of [API_KEY, TOKEN]) expect(everything).not.toContain(secret);
  });

  it('the repro: a huge (here endless) response is read as a stream up to the cap and cut with a note', async () => {
    const result = await call(tools.get('big') as AnyTool, {});
    expect(result.value.cut).toBe(true);
    expect((result.value.body as string).length).toBe(256 * 1024);
    expect(result.text.endsWith('\n[response cut: only its first 262144 bytes were read]')).toBe(true);
    expect(result.text).toContain('… [242144 more characters cut]');
  });
});
