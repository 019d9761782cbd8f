import { AgentchartError, type ChatModel, type ChatRequest, type ModelEvent } from '@agentchart/core';
import type { LanguageModelV2CallOptions, LanguageModelV3CallOptions } from '@ai-sdk/provider';
import { modelEventStream } from '../shared/modelEventStream.js';
import { type AiSdkTarget, toAiSdkModelError } from './aiSdkErrors.js';
import { type AiSdkStreamPart, aiSdkReplyEvents } from './aiSdkReplyEvents.js';
import { type AiSdkLanguageModel, assertAiSdkModel, providerNameOf } from './aiSdkShape.js';
import { type AiSdkCallSettings, buildAiSdkCall } from './toAiSdkPrompt.js';

/** What `aiSdk()` takes beside the model. */
export interface AiSdkModelOptions {
  /** Sent with every call: `temperature`, `maxOutputTokens`, `providerOptions`, `headers`, `seed`, … */
  settings?: AiSdkCallSettings;
}

/**
 * Any Vercel AI SDK language model (specification v2, from AI SDK 5
 * provider packages, v3, from AI SDK 6 ones, or v4, from AI SDK 7 ones) as
 * a ChatModel, told apart by its `specificationVersion`: streamed
 * text and reasoning, tool calls, tool choice, structured output, usage,
 * abort, and provider errors mapped to agentchart's codes. Tool choice and
 * structured output are what the provider makes of them (see docs/providers.md).
 *
 * @example
 * import { anthropic } from '@ai-sdk/anthropic';
 * const model = aiSdk(anthropic('claude-sonnet-4-5'));
 * const agent = createAgent({ name: 'assistant', model, tools: [getWeather] });
 */
export function aiSdk(model: AiSdkLanguageModel, options: AiSdkModelOptions = {}): ChatModel {
  assertAiSdkModel(model);
  const target: AiSdkTarget = { provider: providerNameOf(model), model: model.modelId };
  const settings = options.settings ?? {};
  return {
    provider: target.provider,
    modelName: model.modelId,
    stream(request) {
      return modelEventStream(
        request.signal,
        (signal) => streamReply(model, settings, target, request, signal),
        (error) => toAiSdkModelError(target, error),
      );
    },
  };
}

async function* streamReply(
  model: AiSdkLanguageModel,
  settings: AiSdkCallSettings,
  target: AiSdkTarget,
  request: ChatRequest,
  signal: AbortSignal,
): AsyncGenerator<ModelEvent> {
  const call = buildAiSdkCall(settings, request, signal);
  let stream: ReadableStream<AiSdkStreamPart>;
  try {
    // The three specifications share every call option agentchart sends (the prompt, tools, tool choice, response format),
    // and the stream parts it reads have v3's shapes in v4.
    const result = await model.doStream(call as LanguageModelV2CallOptions & LanguageModelV3CallOptions & never);
    stream = result.stream as ReadableStream<AiSdkStreamPart>;
  } catch (error) {
    throw error instanceof AgentchartError ? error : toAiSdkModelError(target, error);
  }
  yield* aiSdkReplyEvents(stream, target);
}
