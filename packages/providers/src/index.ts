export { resolveOllamaHost } from './ollama/ollamaHost.js';
export { ollama, type OllamaModelOptions } from './ollama/ollamaModel.js';
export { type OllamaProbe, probeOllama } from './ollama/probeOllama.js';
export { openai, type OpenAIModelOptions } from './openai/openaiModel.js';
export {
  type RecordedRequest,
  scriptedModel,
  type ScriptedModel,
  type ScriptedModelOptions,
  type ScriptedResponder,
  type ScriptedToolCall,
  type ScriptedTurn,
} from './scripted/scriptedModel.js';
export { type OpenAICompat, detectCompat } from './openai/serverProfile.js';
export type { TransportOptions } from './transport/transportOptions.js';
export { ollamaServerVersion, THINK_FALSE_KEEPS_FORMAT } from './ollama/ollamaVersion.js';
