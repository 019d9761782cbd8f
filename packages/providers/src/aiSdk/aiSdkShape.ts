import { ConfigurationError } from '@agentchart/core';
import type { LanguageModelV2, LanguageModelV3 } from '@ai-sdk/provider';

/** A Vercel AI SDK language model of a specification version `aiSdk()` speaks. */
export type AiSdkLanguageModel = LanguageModelV2 | LanguageModelV3;

/**
 * Checks by shape that `model` is an AI SDK language model of specification
 * v2 (AI SDK 5 providers) or v3 (AI SDK 6 providers), with a clear error for
 * anything else (a model id string, a v1 model, a provider function).
 *
 * @example
 * assertAiSdkModel(anthropic('claude-sonnet-4-5')); // ok
 */
export function assertAiSdkModel(model: unknown): asserts model is AiSdkLanguageModel {
  if (typeof model === 'string') {
    throw new ConfigurationError(
      `aiSdk() takes a language model object, not the model id "${model}": pass e.g. aiSdk(anthropic('${model}')) with the provider package's function.`,
      { model },
    );
  }
  if (typeof model === 'function') {
    throw new ConfigurationError('aiSdk() got a provider, not a model: call it with a model id first, e.g. aiSdk(anthropic("claude-sonnet-4-5")).');
  }
  const shape = model as Partial<Record<'specificationVersion' | 'doStream' | 'modelId' | 'provider', unknown>> | null;
  if (typeof shape !== 'object' || shape === null || typeof shape.doStream !== 'function') {
    throw new ConfigurationError('aiSdk() takes a Vercel AI SDK language model (with `doStream`), e.g. aiSdk(openai("gpt-4o-mini")).', {
      got: shape === null ? 'null' : typeof shape,
    });
  }
  if (shape.specificationVersion !== 'v2' && shape.specificationVersion !== 'v3') {
    throw new ConfigurationError(
      `aiSdk() speaks AI SDK language-model specifications v2 and v3; this model says ${JSON.stringify(shape.specificationVersion)}. ` +
        'Upgrade the provider package to a version made for AI SDK 5 or 6.',
      { specificationVersion: shape.specificationVersion },
    );
  }
  if (typeof shape.modelId !== 'string' || typeof shape.provider !== 'string') {
    throw new ConfigurationError('aiSdk() got a language model without a string `modelId` and `provider`.', {
      modelId: shape.modelId,
      provider: shape.provider,
    });
  }
}

/**
 * The provider's name as agentchart reports it: the AI SDK's provider id
 * without its API suffix (`anthropic.messages` → `anthropic`).
 */
export const providerNameOf = (model: AiSdkLanguageModel): string => model.provider.split('.')[0] || model.provider;
