import { type AnyTool, ConfigurationError } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { type OpenApiDocument, toolsFromOpenAPI } from '@agentchart/tools';
import { scriptedModel } from '@agentchart/providers';
import { firstValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { sendJson, startHttpServer } from './httpTestServer.js';

/** A small API that uses every parameter location, several styles and three security schemes. */
function accountsApi(serverUrl: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'Accounts', version: '1' },
    servers: [{ url: `${serverUrl}/{basePath}`, variables: { basePath: { default: 'api' } } }],
    components: {
      securitySchemes: {
        bearer: { type: 'http', scheme: 'bearer' },
        basic: { type: 'http', scheme: 'basic' },
        queryKey: { type: 'apiKey', in: 'query', name: 'key' },
      },
      parameters: { trace: { name: 'X-Trace', in: 'header', schema: { type: 'string' } } },
    },
    security: [{ bearer: [] }],
    paths: {
      '/accounts/{ids}/entries{coords}': {
        parameters: [{ $ref: '#/components/parameters/trace' }],
        get: {
          operationId: 'list.entries',
          summary: 'Lists entries.',
          parameters: [
            { name: 'ids', in: 'path', required: true, schema: { type: 'array', items: { type: 'integer' } } },
            {
              name: 'coords',
              in: 'path',
              required: true,
              style: 'matrix',
              explode: true,
              schema: { type: 'object', properties: { x: { type: 'integer' }, y: { type: 'integer' } } },
            },
            {
              name: 'filter',
              in: 'query',
              style: 'deepObject',
              schema: { type: 'object', properties: { kind: { type: 'string' }, min: { type: 'number' } } },
            },
            { name: 'fields', in: 'query', explode: false, schema: { type: 'array', items: { type: 'string' } } },
            { name: 'session', in: 'cookie', schema: { type: 'string' } },
            { name: 'Authorization', in: 'header', schema: { type: 'string' } },
          ],
          responses: { '200': { description: 'ok' } },
        },
      },
      '/accounts': {
        post: {
          operationId: 'createAccount',
          security: [{ basic: [] }],
          requestBody: {
            required: true,
            content: {
              'application/x-www-form-urlencoded': {
                schema: {
                  type: 'object',
                  required: ['owner'],
                  properties: { owner: { type: 'string' }, id: { type: 'integer', readOnly: true }, limit: { type: 'integer', nullable: true } },
                },
              },
            },
          },
          responses: { '201': { description: 'created' } },
        },
      },
      '/report': {
        get: { operationId: 'report', description: 'A slow report.', security: [{ queryKey: [] }], responses: { '200': { description: 'ok' } } },
      },
      '/moved': { get: { operationId: 'moved', security: [], responses: { '302': { description: 'moved' } } } },
    },
  };
}

let server: Awaited<ReturnType<typeof startHttpServer>>;
let elsewhere: Awaited<ReturnType<typeof startHttpServer>>;
/** When the client closed its connection to the slow endpoint before the answer. */
let reportAbandonedAt: number | undefined;

beforeAll(async () => {
  elsewhere = await startHttpServer((_request, response) => sendJson(response, 200, { stolen: true }));
  server = await startHttpServer((request, response) => {
    if (request.url.startsWith('/api/report')) {
      const timer = setTimeout(() => sendJson(response, 200, { late: true }), 2_000);
      response.on('close', () => {
        clearTimeout(timer);
        if (!response.writableEnded) reportAbandonedAt = Date.now();
      });
      return;
    }
    if (request.url === '/api/moved') {
      response.writeHead(302, { location: `${elsewhere.url}/steal` });
      return response.end();
    }
    if (request.url === '/api/accounts') return sendJson(response, 201, { created: true });
    return sendJson(response, 200, { ok: true });
  });
});
afterAll(async () => {
  await server.close();
  await elsewhere.close();
});
beforeEach(() => {
  server.requests.length = 0;
  elsewhere.requests.length = 0;
});

async function call(tools: AnyTool[], name: string, args: unknown) {
  const model = scriptedModel([{ toolCalls: [{ name, arguments: args }] }, { text: 'Done.' }]);
  const run = createAgent({ name: 'clerk', model, tools }).run('Go.');
  const events = await firstValueFrom(run.events$.pipe(toArray()));
  const result = await run.result;
  return { record: result.toolCalls[0], events, result };
}

describe('toolsFromOpenAPI requests', () => {
  it("uses the document's server, and places path, query, header and cookie parameters in their styles", async () => {
    const tools = toolsFromOpenAPI(accountsApi(server.url), {
      auth: { bearer: 'tok-123' },
      headers: { 'X-Client': 'agentchart' },
      query: { v: '2' },
    });
    const listEntries = tools.find((tool) => tool.name === 'list_entries') as AnyTool;
    expect(Object.keys(listEntries.jsonSchema.properties as object)).toEqual(['X-Trace', 'ids', 'coords', 'filter', 'fields', 'session']);
    expect(listEntries.jsonSchema.required).toEqual(['ids', 'coords']);
    const { record } = await call(tools, 'list_entries', {
      ids: [3, 4],
      coords: { x: 1, y: 2 },
      filter: { kind: 'debit', min: 10 },
      fields: ['date', 'amount'],
      session: 'a b',
      'X-Trace': 't-1',
    });
    expect(record).toMatchObject({ isError: false, value: { status: 200, body: { ok: true } } });
    const [request] = server.requests;
    expect(request?.url).toBe('/api/accounts/3,4/entries;x=1;y=2?v=2&filter%5Bkind%5D=debit&filter%5Bmin%5D=10&fields=date%2Camount');
    expect(request?.headers).toMatchObject({ 'x-trace': 't-1', 'x-client': 'agentchart', cookie: 'session=a%20b', authorization: 'Bearer tok-123' });
  });

  it('sends a form body with basic auth, without read-only properties, leaving out a null field', async () => {
    const tools = toolsFromOpenAPI(accountsApi(server.url), { auth: { basic: { username: 'ada', password: 'pw' } } });
    const create = tools.find((tool) => tool.name === 'createAccount') as AnyTool;
    expect(create.jsonSchema).toEqual({
      type: 'object',
      properties: { body: { type: 'object', required: ['owner'], properties: { owner: { type: 'string' }, limit: { type: ['integer', 'null'] } } } },
      required: ['body'],
    });
    const { record } = await call(tools, 'createAccount', { body: { owner: 'Ada', limit: null } });
    expect(record).toMatchObject({ content: 'HTTP 201 Created\n{"created":true}', isError: false });
    expect(server.requests[0]).toMatchObject({ method: 'POST', body: 'owner=Ada' }); // a null field is left out of a form
    expect(server.requests[0]?.headers).toMatchObject({
      'content-type': 'application/x-www-form-urlencoded',
      authorization: `Basic ${Buffer.from('ada:pw').toString('base64')}`,
    });
  });

  it('returns a timeout to the model without the query credential in any message', async () => {
    const tools = toolsFromOpenAPI(accountsApi(server.url), { auth: { queryKey: 'qk-secret' }, timeoutMs: 100 });
    const { record, events, result } = await call(tools, 'report', {});
    expect(server.requests[0]?.url).toBe('/api/report?key=qk-secret');
    expect(record).toMatchObject({ content: 'GET /report timed out after 100 ms. Try again later or with a narrower request.', isError: true });
    expect(result.stopReason).toBe('completed');
    expect(JSON.stringify([events, result])).not.toContain('qk-secret');
  });

  it('aborting the run aborts a request in flight', async () => {
    const tools = toolsFromOpenAPI(accountsApi(server.url), { auth: { queryKey: 'k' } });
    const model = scriptedModel([{ toolCalls: [{ name: 'report', arguments: {} }] }, { text: 'Done.' }]);
    const run = createAgent({ name: 'clerk', model, tools }).run('Go.');
    reportAbandonedAt = undefined;
    setTimeout(() => run.abort(), 50);
    const started = Date.now();
    const result = await run.result;
    expect(result.stopReason).toBe('aborted');
    expect(Date.now() - started).toBeLessThan(1_500); // the server would answer after 2 s
    expect(server.requests.map((request) => request.url)).toEqual(['/api/report?key=k']);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(reportAbandonedAt).toBeDefined(); // the request itself was cancelled, not left running
    expect(Number(reportAbandonedAt) - started).toBeLessThan(1_500);
  });

  it('does not follow a redirect to another host', async () => {
    const tools = toolsFromOpenAPI(accountsApi(server.url));
    const { record } = await call(tools, 'moved', {});
    expect(record).toMatchObject({ content: 'HTTP 302 Found: GET /moved answered with a redirect, which is not followed.', isError: true });
    expect(elsewhere.requests).toEqual([]);
  });

  it('returns an unreachable server to the model', async () => {
    const closed = await startHttpServer(() => undefined);
    await closed.close();
    const tools = toolsFromOpenAPI(accountsApi(closed.url), { operations: ['moved'] });
    const { record } = await call(tools, 'moved', {});
    expect(record).toMatchObject({ content: 'GET /moved failed: the server could not be reached (ECONNREFUSED).', isError: true });
  });

  it('builds only the operations asked for, and says which are missing', () => {
    expect(toolsFromOpenAPI(accountsApi(server.url), { operations: ['report', 'moved'] }).map((tool) => tool.name)).toEqual(['report', 'moved']);
    expect(toolsFromOpenAPI(accountsApi(server.url), { operations: ['list.entries'] }).map((tool) => tool.name)).toEqual(['list_entries']);
    expect(() => toolsFromOpenAPI(accountsApi(server.url), { timeoutMs: 0 })).toThrow('timeoutMs must be a positive number');
    expect(() => toolsFromOpenAPI(accountsApi(server.url), { headers: { 'X-Client': 'a\r\nHost: evil' } })).toThrow(
      'The headers option has an invalid header "X-Client": use a valid header name and a single-line string value.',
    );
    expect(() => toolsFromOpenAPI(accountsApi(server.url), { headers: { 'bad name': 'x' } })).toThrow('invalid header "bad name"');
    expect(() => toolsFromOpenAPI(accountsApi(server.url), { operations: ['nope'] })).toThrow('The document has no operation named nope.');
  });

  it('refuses documents that are not OpenAPI 3', () => {
    expect(() => toolsFromOpenAPI({ swagger: '2.0', paths: {} } as unknown as OpenApiDocument)).toThrow(ConfigurationError);
    expect(() => toolsFromOpenAPI('openapi: 3.0.0')).toThrow(/parse YAML documents first/);
  });
});
