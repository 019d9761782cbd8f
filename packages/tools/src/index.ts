export { DEFAULT_OPENAPI_TIMEOUT_MS, OPENAPI_MAX_RESPONSE_BYTES, OPENAPI_MAX_RESPONSE_CHARS } from './constants.js';
export type { OpenApiDocument } from './openapi/openApiDocument.js';
export type { OpenApiCredential } from './openapi/securityCredentials.js';
export type { OpenApiResponse } from './openapi/sendOpenApiRequest.js';
export { type OpenApiToolsOptions, toolsFromOpenAPI } from './openapi/toolsFromOpenAPI.js';
