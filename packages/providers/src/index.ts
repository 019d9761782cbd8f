export * from './scripted/scriptedModel.js';
export * from './constants.js';
export { ollama, type OllamaModelOptions } from './ollama/ollamaModel.js';
export { resolveOllamaHost } from './ollama/ollamaHost.js';
export { probeOllama, type OllamaProbe } from './ollama/probeOllama.js';
export { toolCallFormat } from './ollama/toolCallFormat.js';
export { openai, type OpenAIModelOptions } from './openai/openaiModel.js';
export { aiSdk, type AiSdkModelOptions } from './aiSdk/aiSdkModel.js';
export type { AiSdkLanguageModel } from './aiSdk/aiSdkShape.js';
