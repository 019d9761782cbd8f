import { ConfigurationError } from '@agentchart/core';
import type { LanguageModelV2, LanguageModelV3 } from '@ai-sdk/provider';

/**
 * An AI SDK 7 language model (specification v4, `LanguageModelV4` of
 * `@ai-sdk/provider` 4.x), described by the members `aiSdk()` uses. A type of
 * agentchart's own, so that a project without AI SDK 7 type-checks: the call
 * options and stream parts agentchart sends and reads have v3's shapes in v4.
 */
export interface AiSdkLanguageModelV4 {
  readonly specificationVersion: 'v4';
  readonly provider: string;
  readonly modelId: string;
  /**
   * `aiSdk()` calls it with the call options it builds for v3, which v4
   * takes; the parameter is `never` so that v4's own options type (from a
   * package this one does not import) fits.
   */
  doStream(options: never): PromiseLike<{ readonly stream: ReadableStream<unknown> }>;
}

/** A Vercel AI SDK language model of a specification version `aiSdk()` speaks: v2 (AI SDK 5), v3 (AI SDK 6) or v4 (AI SDK 7). */
export type AiSdkLanguageModel = LanguageModelV2 | LanguageModelV3 | AiSdkLanguageModelV4;

const SPECIFICATION_VERSIONS: readonly unknown[] = ['v2', 'v3', 'v4'];

/**
 * Checks by shape that `model` is an AI SDK language model of specification
 * v2 (AI SDK 5 providers), v3 (AI SDK 6) or v4 (AI SDK 7), with a clear
 * error for anything else (a model id string, a v1 model, a provider function).
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
  if (!SPECIFICATION_VERSIONS.includes(shape.specificationVersion)) {
    throw new ConfigurationError(
      `aiSdk() speaks AI SDK language-model specifications v2, v3 and v4; this model says ${JSON.stringify(shape.specificationVersion)}. ` +
        'Upgrade the provider package to a version made for AI SDK 5, 6 or 7.',
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
