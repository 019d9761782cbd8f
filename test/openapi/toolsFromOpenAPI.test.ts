import { readFileSync } from 'node:fs';
import { type AnyTool, ConfigurationError } from '@agentchart/core';
import { createAgent } from '@agentchart/actors';
import { type OpenApiDocument, toolsFromOpenAPI } from '@agentchart/tools';
import { scriptedModel } from '@agentchart/providers';
import { firstValueFrom, toArray } from 'rxjs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type RecordedRequest, sendJson, startHttpServer } from './httpTestServer.js';

/** The Swagger Petstore OpenAPI 3.0 document (swagger-api/swagger-petstore, src/main/resources/openapi.yaml, as JSON). */
const petstore = JSON.parse(readFileSync(new URL('./fixtures/petstore3.openapi.json', import.meta.url), 'utf8')) as OpenApiDocument;
const SECRET = 'secret-key-7f3a';
const PET = { id: 7, name: 'doggie', photoUrls: [], status: 'available' };

let server: Awaited<ReturnType<typeof startHttpServer>>;
let tools: AnyTool[];

beforeAll(async () => {
  server = await startHttpServer((request, response) => {
    const path = request.url.split('?')[0];
    if (request.method === 'GET' && path === '/v3/pet/7') return sendJson(response, 200, PET);
    if (request.method === 'GET' && path === '/v3/pet/404') return sendJson(response, 404, { code: 1, type: 'error', message: 'Pet not found' });
    if (request.method === 'GET' && path === '/v3/pet/500') {
      response.writeHead(500, { 'content-type': 'text/plain' });
      return response.end('Internal error');
    }
    if (request.method === 'POST' && path === '/v3/pet') return sendJson(response, 200, { id: 10, ...JSON.parse(request.body) });
    if (request.method === 'GET' && path === '/v3/store/inventory') {
      return request.headers.api_key === SECRET ? sendJson(response, 200, { available: 3 }) : sendJson(response, 401, { message: 'unauthorized' });
    }
    if (request.method === 'GET' && path === '/v3/user/login') {
      response.writeHead(200, { 'content-type': 'text/plain' });
      return response.end('logged in user session:123');
    }
    if (path?.startsWith('/v3/')) return sendJson(response, 200, { ok: true });
    response.writeHead(404, { 'content-type': 'text/plain' });
    response.end('no route');
  });
  tools = toolsFromOpenAPI(petstore, { baseUrl: `${server.url}/v3`, auth: { api_key: SECRET } });
});
afterAll(() => server.close());
beforeEach(() => {
  server.requests.length = 0;
});

/** Runs an agent whose scripted model makes these calls in one reply, then answers. */
async function callTools(agentTools: AnyTool[], calls: { name: string; arguments: unknown }[]) {
  const model = scriptedModel([{ toolCalls: calls }, { text: 'Done.' }]);
  const run = createAgent({ name: 'clerk', model, tools: agentTools }).run('Go.');
  const events = await firstValueFrom(run.events$.pipe(toArray()));
  const result = await run.result;
  return { result, events, model, records: result.toolCalls };
}

const lastRequest = (): RecordedRequest => server.requests.at(-1) as RecordedRequest;

describe('toolsFromOpenAPI on the Petstore document', () => {
  it('makes one tool per operation, named by operationId and described by summary and description', () => {
    expect(tools.map((tool) => tool.name)).toEqual([
      'addPet',
      'updatePet',
      'findPetsByStatus',
      'findPetsByTags',
      'getPetById',
      'updatePetWithForm',
      'deletePet',
      'uploadFile',
      'getInventory',
      'placeOrder',
      'getOrderById',
      'deleteOrder',
      'createUser',
      'createUsersWithListInput',
      'loginUser',
      'logoutUser',
      'getUserByName',
      'updateUser',
      'deleteUser',
    ]);
    const getPetById = tools.find((tool) => tool.name === 'getPetById') as AnyTool;
    expect(getPetById.spec).toEqual({
      name: 'getPetById',
      description: 'Find pet by ID\n\nReturns a single pet',
      parameters: {
        type: 'object',
        properties: { petId: { type: 'integer', format: 'int64', description: 'ID of pet to return' } },
        required: ['petId'],
      },
    });
    const findByStatus = tools.find((tool) => tool.name === 'findPetsByStatus') as AnyTool;
    expect(findByStatus.jsonSchema.properties).toEqual({
      status: {
        type: 'string',
        enum: ['available', 'pending', 'sold'],
        default: 'available',
        description: 'Status values that need to be considered for filter',
      },
    });
  });

  it('calls the API and returns the JSON response with its status', async () => {
    const { records, result } = await callTools(tools, [{ name: 'getPetById', arguments: { petId: 7 } }]);
    expect(lastRequest()).toMatchObject({ method: 'GET', url: '/v3/pet/7' });
    expect(records[0]).toMatchObject({
      content: `HTTP 200 OK\n${JSON.stringify(PET)}`,
      isError: false,
      value: { status: 200, statusText: 'OK', contentType: 'application/json', body: PET },
    });
    expect(result.stopReason).toBe('completed');
  });

  it('puts query parameters in the query, exploded as the document says', async () => {
    await callTools(tools, [{ name: 'findPetsByTags', arguments: { tags: ['tag1', 'tag 2'] } }]);
    expect(lastRequest().url).toBe('/v3/pet/findByTags?tags=tag1&tags=tag+2');
    await callTools(tools, [{ name: 'updatePetWithForm', arguments: { petId: 7, name: 'Rex', status: 'sold' } }]);
    expect(lastRequest()).toMatchObject({ method: 'POST', url: '/v3/pet/7?name=Rex&status=sold' });
  });

  it('sends a JSON request body', async () => {
    const pet = { name: 'Rex', photoUrls: ['https://example.com/rex.png'], category: { id: 1, name: 'Dogs' }, status: 'pending' };
    const { records } = await callTools(tools, [{ name: 'addPet', arguments: { body: pet } }]);
    expect(lastRequest()).toMatchObject({ method: 'POST', url: '/v3/pet' });
    expect(JSON.parse(lastRequest().body)).toEqual(pet);
    expect(lastRequest().headers['content-type']).toBe('application/json');
    expect(records[0]?.value).toMatchObject({ status: 200, body: { id: 10, ...pet } });
  });

  it('returns a text response as text', async () => {
    const { records } = await callTools(tools, [{ name: 'loginUser', arguments: { username: 'ada', password: 'pw' } }]);
    expect(lastRequest().url).toBe('/v3/user/login?username=ada&password=pw');
    expect(records[0]).toMatchObject({ content: 'HTTP 200 OK\nlogged in user session:123', value: { body: 'logged in user session:123' } });
  });

  it('cuts the body the model sees at maxResponseChars; the program gets it whole', async () => {
    const short = toolsFromOpenAPI(petstore, { baseUrl: `${server.url}/v3`, operations: ['loginUser'], maxResponseChars: 9 });
    const { records } = await callTools(short, [{ name: 'loginUser', arguments: { username: 'ada', password: 'pw' } }]);
    expect(records[0]).toMatchObject({
      content: 'HTTP 200 OK\nlogged in… [17 more characters cut]',
      value: { body: 'logged in user session:123' },
    });
    expect(() => toolsFromOpenAPI(petstore, { baseUrl: server.url, maxResponseChars: 0 })).toThrow(
      'maxResponseChars must be a whole number of at least 1; got 0.',
    );
  });

  it('validates arguments against the document before any request, reporting every problem at once', async () => {
    const { records } = await callTools(tools, [
      { name: 'getPetById', arguments: { petId: 'seven' } },
      { name: 'addPet', arguments: { body: { photoUrls: 'one.png', status: 'lost' } } },
      { name: 'findPetsByStatus', arguments: { status: 'missing' } },
    ]);
    expect(server.requests).toEqual([]);
    expect(records.map((record) => record.isError)).toEqual([true, true, true]);
    expect(records[0]?.content).toBe(
      'Invalid arguments for tool "getPetById":\n- petId: Invalid input: expected number, received string\nFix these and call "getPetById" again.',
    );
    expect(records[1]?.content).toBe(
      'Invalid arguments for tool "addPet":\n' +
        '- body.name: Invalid input: expected string, received undefined\n' +
        '- body.photoUrls: Invalid input: expected array, received string\n' +
        '- body.status: Invalid option: expected one of "available"|"pending"|"sold"\n' +
        'Fix these and call "addPet" again.',
    );
    expect(records[2]?.content).toContain('- status: Invalid option: expected one of "available"|"pending"|"sold"');
  });

  it('returns 4xx and 5xx responses to the model as error results, and the run goes on', async () => {
    const { records, result } = await callTools(tools, [
      { name: 'getPetById', arguments: { petId: 404 } },
      { name: 'getPetById', arguments: { petId: 500 } },
    ]);
    expect(records.map(({ content, isError }) => ({ content, isError }))).toEqual([
      { content: 'HTTP 404 Not Found\n{"code":1,"type":"error","message":"Pet not found"}', isError: true },
      { content: 'HTTP 500 Internal Server Error\nInternal error', isError: true },
    ]);
    expect(result.stopReason).toBe('completed');
  });
});

describe('toolsFromOpenAPI credentials', () => {
  it('fills an API key from options, hides it from the model and keeps it out of events and transcript', async () => {
    const deletePet = tools.find((tool) => tool.name === 'deletePet') as AnyTool;
    expect(Object.keys(deletePet.jsonSchema.properties as object)).toEqual(['petId']);
    const { records, events, model, result } = await callTools(tools, [
      { name: 'getInventory', arguments: {} },
      { name: 'deletePet', arguments: { petId: 7, api_key: 'model-made-up-key' } },
    ]);
    expect(server.requests.map((request) => [request.url, request.headers.api_key])).toEqual([
      ['/v3/store/inventory', SECRET],
      ['/v3/pet/7', SECRET],
    ]);
    expect(records[0]).toMatchObject({ content: 'HTTP 200 OK\n{"available":3}', isError: false });
    const everythingSeen = JSON.stringify([events, model.requests, result]);
    expect(everythingSeen).not.toContain(SECRET);
  });

  it('sends no credential it was not given: the 401 reaches the model', async () => {
    const anonymous = toolsFromOpenAPI(petstore, { baseUrl: `${server.url}/v3`, operations: ['getInventory'] });
    const { records } = await callTools(anonymous, [{ name: 'getInventory', arguments: {} }]);
    expect(lastRequest().headers.api_key).toBeUndefined();
    expect(records[0]).toMatchObject({ content: 'HTTP 401 Unauthorized\n{"message":"unauthorized"}', isError: true });
  });

  it('refuses auth for a scheme the document does not define', () => {
    expect(() => toolsFromOpenAPI(petstore, { baseUrl: server.url, auth: { apiKey: 'x' } })).toThrow(
      'auth names "apiKey", which the document does not define as security schemes (it defines petstore_auth, api_key).',
    );
  });
});

describe('toolsFromOpenAPI requests stay on the API server', () => {
  it("needs baseUrl when the document's server URL is relative", () => {
    expect(() => toolsFromOpenAPI(petstore)).toThrow(ConfigurationError);
    expect(() => toolsFromOpenAPI(petstore)).toThrow(/is not an absolute http\(s\) URL: pass `baseUrl`/);
  });

  it('encodes path parameters so that a model cannot change the host or climb out of the base path', async () => {
    const { records } = await callTools(tools, [
      { name: 'getUserByName', arguments: { username: 'http://evil.example/x?y=1#z' } },
      { name: 'getUserByName', arguments: { username: '..' } },
      { name: 'getUserByName', arguments: { username: '%2e%2e' } },
    ]);
    expect(server.requests.map((request) => request.url)).toEqual(['/v3/user/http%3A%2F%2Fevil.example%2Fx%3Fy%3D1%23z', '/v3/user/%252e%252e']);
    expect(records[1]).toMatchObject({ content: 'GET /user/{username}: a path parameter may not be "." or "..".', isError: true });
  });
});
