import { z } from 'zod';
import { expects } from './assertOptions.js';

/* Schemas of options that several entry points take (a model, an inspector, a function). */

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A function option (a predicate, a selection function, …). */
export function functionSchema<T extends (...args: never[]) => unknown>(error: ReturnType<typeof expects>) {
  return z.custom<T>((value) => typeof value === 'function', { ...error, abort: true });
}

/** A `ChatModel` option (anything with a `stream` method). */
export function chatModelSchema() {
  return z.custom(
    (value) => isObject(value) && typeof value.stream === 'function',
    expects('must be a ChatModel, e.g. scriptedModel(...), ollama(...) or openai(...)'),
  );
}

/** The `inspect` option: an XState inspection observer or a function. */
export function inspectSchema() {
  return z.custom((value) => typeof value === 'function' || isObject(value), expects('must be an XState inspection observer or a function'));
}
