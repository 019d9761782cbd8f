export { toolsFromOpenAPI, type OpenApiToolsOptions } from './toolsFromOpenAPI.js';
export type { OpenApiDocument } from './openApiDocument.js';
export type { OpenApiCredential } from './securityCredentials.js';
export type { OpenApiResponse } from './sendOpenApiRequest.js';
