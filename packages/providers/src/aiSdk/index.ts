/**
 * `@agentchart/providers/ai-sdk`: any Vercel AI SDK language model as an
 * agentchart `ChatModel`. A subpath of its own, so that only users of the AI
 * SDK need `@ai-sdk/provider` (an optional peer dependency) to type-check.
 */
export { aiSdk, type AiSdkModelOptions } from './aiSdkModel.js';
export type { AiSdkLanguageModel, AiSdkLanguageModelV4 } from './aiSdkShape.js';
