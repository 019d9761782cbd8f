import { ConfigurationError } from '@agentchart/core';

/** Throws a ConfigurationError unless `model` names a model. */
export function requireModelName(factory: string, model: unknown): void {
  if (typeof model !== 'string' || model.trim() === '') {
    throw new ConfigurationError(`${factory}({ model }) needs the model's name as the server knows it, e.g. 'qwen3:8b'.`, { model });
  }
}
