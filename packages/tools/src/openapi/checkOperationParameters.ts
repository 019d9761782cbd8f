import { ConfigurationError } from '@agentchart/core';
import { type OpenApiDocument, type OpenApiObject, dereference } from './openApiDocument.js';

const LOCATIONS = ['path', 'query', 'header', 'cookie'];

/**
 * Refuses an operation whose parameters cannot all be sent: a parameter with
 * no name or no valid `in` (it would be dropped, so the tool would lack that
 * argument), and a path template variable (`/users/{id}`) that no path
 * parameter fills (it would be sent unfilled, `/users/%7Bid%7D`). The error
 * names the operation and the parameter or variable; leaving the operation
 * out (the `operations` option) skips the check.
 *
 * @example
 * checkOperationParameters(document, pathItem, operation, 'get', '/users/{id}'); // throws: no path parameter "id"
 */
export function checkOperationParameters(
  document: OpenApiDocument,
  item: OpenApiObject,
  operation: OpenApiObject,
  method: string,
  path: string,
): void {
  const label = `${method.toUpperCase()} ${path}${typeof operation.operationId === 'string' ? ` ("${operation.operationId}")` : ''}`;
  const parameters = [...asArray(item.parameters), ...asArray(operation.parameters)].map((raw) => dereference(document, raw));
  for (const parameter of parameters) {
    if (typeof parameter.name !== 'string' || parameter.name === '') {
      throw new ConfigurationError(
        `Operation ${label} has a parameter without a name (in: ${JSON.stringify(parameter.in)}): give it a \`name\` in the document, ` +
          'or leave the operation out with the `operations` option.',
        { operation: label, parameter: parameter.name },
      );
    }
    if (!LOCATIONS.includes(String(parameter.in))) {
      throw new ConfigurationError(
        `Operation ${label}: parameter "${parameter.name}" has ${parameter.in === undefined ? 'no `in`' : `\`in: ${JSON.stringify(parameter.in)}\``}, ` +
          'so it could not be sent: set `in` to "path", "query", "header" or "cookie" in the document, or leave the operation out with the `operations` option.',
        { operation: label, parameter: parameter.name, in: parameter.in },
      );
    }
  }
  const pathParameters = new Set(parameters.filter((parameter) => parameter.in === 'path').map((parameter) => parameter.name));
  for (const [, variable] of path.matchAll(/\{([^}]*)\}/g)) {
    if (variable !== undefined && pathParameters.has(variable)) continue;
    throw new ConfigurationError(
      `Operation ${label}: the path has {${variable}}, but no path parameter "${variable}" fills it, so the request would go out unfilled. ` +
        `Declare { "name": "${variable}", "in": "path", "required": true } on the operation or its path, or leave the operation out with the \`operations\` option.`,
      { operation: label, variable },
    );
  }
}

const asArray = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);
