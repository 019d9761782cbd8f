import { getOwn } from '@agentchart/core/internal';
import type { OperationParameter } from './openApiOperations.js';

/** Where a request's parameters end up. */
export interface SerializedParameters {
  /** The path with its `{placeholders}` filled in (values percent-encoded). */
  path: string;
  query: [string, string][];
  headers: [string, string][];
  cookies: [string, string][];
}

/**
 * Places each argument where the document says — path, query, header or
 * cookie — serialized in its style (`simple`, `label`, `matrix`, `form`,
 * `spaceDelimited`, `pipeDelimited`, `deepObject`) with its `explode` setting.
 * Absent optional arguments are left out.
 *
 * @example
 * serializeParameters('/pet/{petId}', [petIdParameter, tagsParameter], { petId: 7, tags: ['a', 'b'] })
 * // { path: '/pet/7', query: [['tags', 'a'], ['tags', 'b']], headers: [], cookies: [] }
 */
export function serializeParameters(
  pathTemplate: string,
  parameters: readonly OperationParameter[],
  args: Record<string, unknown>,
): SerializedParameters {
  const out: SerializedParameters = { path: pathTemplate, query: [], headers: [], cookies: [] };
  for (const parameter of parameters) {
    // Own arguments only: a parameter named `constructor` is absent unless the model gave it.
    const value = getOwn(args, parameter.argument);
    if (value === undefined) continue;
    if (parameter.json) {
      place(out, parameter, [[parameter.name, JSON.stringify(value)]], JSON.stringify(value));
      continue;
    }
    switch (parameter.in) {
      case 'path':
        out.path = out.path.split(`{${parameter.name}}`).join(pathValue(parameter, value));
        break;
      case 'query':
        out.query.push(...queryPairs(parameter, value));
        break;
      case 'header':
        out.headers.push([parameter.name, simpleValue(value, parameter.explode)]);
        break;
      case 'cookie':
        out.cookies.push([parameter.name, formValue(value)]);
        break;
    }
  }
  return out;
}

function place(out: SerializedParameters, parameter: OperationParameter, pairs: [string, string][], single: string): void {
  if (parameter.in === 'path') out.path = out.path.split(`{${parameter.name}}`).join(encodeURIComponent(single));
  else if (parameter.in === 'query') out.query.push(...pairs);
  else if (parameter.in === 'header') out.headers.push([parameter.name, single]);
  else out.cookies.push([parameter.name, single]);
}

const text = (value: unknown): string => (typeof value === 'object' && value !== null ? JSON.stringify(value) : String(value));
const entries = (value: object): [string, unknown][] => Object.entries(value).filter(([, item]) => item !== undefined);

/** `simple`: `a,b,c`; objects `k,v,k,v` (or `k=v,k=v` exploded). */
function simpleValue(value: unknown, explode: boolean, encode: (s: string) => string = (s) => s): string {
  if (Array.isArray(value)) return value.map((item) => encode(text(item))).join(',');
  if (typeof value === 'object' && value !== null) {
    return entries(value)
      .map(([key, item]) => (explode ? `${encode(key)}=${encode(text(item))}` : `${encode(key)},${encode(text(item))}`))
      .join(',');
  }
  return encode(text(value));
}

function pathValue(parameter: OperationParameter, value: unknown): string {
  const encode = encodeURIComponent;
  if (parameter.style === 'label') {
    const separator = parameter.explode ? '.' : ',';
    return `.${Array.isArray(value) ? value.map((item) => encode(text(item))).join(separator) : simpleValue(value, parameter.explode, encode)}`;
  }
  if (parameter.style === 'matrix') {
    const name = encode(parameter.name);
    if (Array.isArray(value)) {
      return parameter.explode
        ? value.map((item) => `;${name}=${encode(text(item))}`).join('')
        : `;${name}=${value.map((item) => encode(text(item))).join(',')}`;
    }
    if (typeof value === 'object' && value !== null && parameter.explode) {
      return entries(value)
        .map(([key, item]) => `;${encode(key)}=${encode(text(item))}`)
        .join('');
    }
    return `;${name}=${simpleValue(value, false, encode)}`;
  }
  return simpleValue(value, parameter.explode, encode);
}

function queryPairs(parameter: OperationParameter, value: unknown): [string, string][] {
  const { name, style, explode } = parameter;
  if (Array.isArray(value)) {
    if (style === 'spaceDelimited') return [[name, value.map(text).join(' ')]];
    if (style === 'pipeDelimited') return [[name, value.map(text).join('|')]];
    return explode ? value.map((item) => [name, text(item)]) : [[name, value.map(text).join(',')]];
  }
  if (typeof value === 'object' && value !== null) {
    if (style === 'deepObject') return entries(value).map(([key, item]) => [`${name}[${key}]`, text(item)]);
    return explode
      ? entries(value).map(([key, item]) => [key, text(item)])
      : [
          [
            name,
            entries(value)
              .map(([key, item]) => `${key},${text(item)}`)
              .join(','),
          ],
        ];
  }
  return [[name, text(value)]];
}

function formValue(value: unknown): string {
  return Array.isArray(value) ? value.map(text).join(',') : text(value);
}
