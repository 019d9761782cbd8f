import { type AgentchartError, ConfigurationError } from '@agentchart/core';
import { type OpenApiDocument, toolsFromOpenAPI } from '@agentchart/tools';
import { describe, expect, it } from 'vitest';

const ok = { '200': { description: 'ok' } };
const documentWith = (paths: OpenApiDocument['paths']): OpenApiDocument => ({
  openapi: '3.0.3',
  info: { title: 't', version: '1' },
  servers: [{ url: 'http://127.0.0.1:9/api' }],
  paths,
});

/** The ConfigurationError `toolsFromOpenAPI` throws for `document`. */
function refusal(document: OpenApiDocument, options: Parameters<typeof toolsFromOpenAPI>[1] = {}): AgentchartError {
  try {
    toolsFromOpenAPI(document, options);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as AgentchartError;
  }
  throw new Error('toolsFromOpenAPI accepted the document');
}

describe('toolsFromOpenAPI refuses parameters it could not send', () => {
  it('refuses a parameter without `in`, naming the operation and the parameter', () => {
    const document = documentWith({
      '/users': { get: { operationId: 'listUsers', parameters: [{ name: 'limit', schema: { type: 'integer' } }], responses: ok } },
    });
    const error = refusal(document);
    expect(error.code).toBe('CONFIGURATION_INVALID');
    expect(error.message).toBe(
      'Operation GET /users ("listUsers"): parameter "limit" has no `in`, so it could not be sent: ' +
        'set `in` to "path", "query", "header" or "cookie" in the document, or leave the operation out with the `operations` option.',
    );
    expect(error.details).toMatchObject({ operation: 'GET /users ("listUsers")', parameter: 'limit' });
  });

  it('refuses a parameter with an unknown `in` and one without a name', () => {
    const body = (parameters: unknown[]) => documentWith({ '/users': { get: { operationId: 'listUsers', parameters, responses: ok } } });
    expect(refusal(body([{ name: 'limit', in: 'body' }])).message).toMatch(
      /^Operation GET \/users \("listUsers"\): parameter "limit" has `in: "body"`, so it could not be sent/,
    );
    expect(refusal(body([{ in: 'query' }])).message).toMatch(
      /^Operation GET \/users \("listUsers"\) has a parameter without a name \(in: "query"\): give it a `name`/,
    );
  });

  it('refuses a path template variable that no path parameter fills, naming the variable', () => {
    const document = documentWith({
      '/users/{id}': { get: { operationId: 'getUser', parameters: [{ name: 'userId', in: 'path', required: true }], responses: ok } },
    });
    const error = refusal(document);
    expect(error.message).toBe(
      'Operation GET /users/{id} ("getUser"): the path has {id}, but no path parameter "id" fills it, so the request would go out unfilled. ' +
        'Declare { "name": "id", "in": "path", "required": true } on the operation or its path, or leave the operation out with the `operations` option.',
    );
    expect(error.details).toMatchObject({ operation: 'GET /users/{id} ("getUser")', variable: 'id' });
  });

  it('accepts a path parameter declared on the path item, and skips operations left out', () => {
    const document = documentWith({
      '/users/{id}': {
        parameters: [{ name: 'id', in: 'path', required: true, schema: { type: 'string' } }],
        get: { operationId: 'getUser', responses: ok },
      },
      '/broken/{x}': { get: { operationId: 'broken', responses: ok } },
    });
    expect(refusal(document).details).toMatchObject({ variable: 'x' });
    expect(toolsFromOpenAPI(document, { operations: ['getUser'] }).map((tool) => tool.jsonSchema.required)).toEqual([['id']]);
  });
});

describe('toolsFromOpenAPI names operations without operationId after method and path', () => {
  it('uses one underscore between the parts (get_pet_petId), as docs/tools.md says', () => {
    const document = documentWith({
      '/users': { get: { responses: ok }, post: { responses: ok } },
      '/pet/{petId}': { get: { parameters: [{ name: 'petId', in: 'path', required: true }], responses: ok } },
      '/user_profiles/{id}/avatar.png': { get: { parameters: [{ name: 'id', in: 'path', required: true }], responses: ok } },
      '/': { get: { responses: ok } },
    });
    expect(toolsFromOpenAPI(document).map((tool) => tool.name)).toEqual([
      'get_users',
      'post_users',
      'get_pet_petId',
      'get_user_profiles_id_avatar_png',
      'get',
    ]);
  });
});
