import { createAgent } from '@agentchart/actors';
import { type OpenApiDocument, toolsFromOpenAPI } from '@agentchart/tools';
import { createTraceRecorder, memorySink } from '@agentchart/inspect';
import { scriptedModel } from '@agentchart/providers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sendJson, startHttpServer } from '../openapi/httpTestServer.js';

const BEARER = 'bearer-secret-0123456789';
const QUERY_KEY = 'query-secret-9876543210';

function reportsApi(serverUrl: string): OpenApiDocument {
  return {
    openapi: '3.1.0',
    info: { title: 'Reports', version: '1' },
    servers: [{ url: serverUrl }],
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' }, queryKey: { type: 'apiKey', in: 'query', name: 'key' } },
    },
    paths: {
      '/me': { get: { operationId: 'whoami', security: [{ bearer: [] }], responses: { '200': { description: 'ok' } } } },
      '/report': { get: { operationId: 'report', security: [{ queryKey: [] }], responses: { '200': { description: 'ok' } } } },
    },
  };
}

describe('OpenAPI credentials under inspection', () => {
  let server: Awaited<ReturnType<typeof startHttpServer>>;
  beforeAll(async () => {
    server = await startHttpServer((request, response) =>
      request.url.startsWith('/report') ? sendJson(response, 401, { error: 'expired key' }) : sendJson(response, 200, { user: 'ada' }),
    );
  });
  afterAll(() => server.close());

  it('never writes the bearer token or the query key into a trace, even when a call fails', async () => {
    const sink = memorySink();
    const recorder = createTraceRecorder({ sink });
    const agent = createAgent({
      name: 'reporter',
      model: scriptedModel([
        {
          toolCalls: [
            { name: 'whoami', arguments: {} },
            { name: 'report', arguments: {} },
          ],
        },
        { text: 'Done.' },
      ]),
      tools: toolsFromOpenAPI(reportsApi(server.url), { auth: { bearer: BEARER, queryKey: QUERY_KEY } }),
    });
    const run = agent.run('Who am I, and the report?', { inspect: recorder.inspect });
    recorder.recordRun(run);
    const result = await run.result;
    await recorder.close();

    // The credentials did travel to the API…
    expect(server.requests.map((request) => request.headers.authorization ?? request.url)).toEqual([`Bearer ${BEARER}`, `/report?key=${QUERY_KEY}`]);
    expect(result.toolCalls.map((record) => record.isError)).toEqual([false, true]);
    // …and nowhere into the trace.
    const trace = sink.toNdjson();
    expect(trace).toContain('"toolName":"report"');
    expect(trace).not.toContain(BEARER);
    expect(trace).not.toContain(QUERY_KEY);
  });
});
