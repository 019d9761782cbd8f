export { serveA2aCommand, type ServeA2aCommandOptions, A2A_USAGE } from './serveA2aCommand.js';
