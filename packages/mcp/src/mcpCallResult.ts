import type { CallToolResult, Tool } from '@modelcontextprotocol/client';

/** A tool as a server lists it. */
export type McpToolDefinition = Tool;

/** A tool result as the program sees it (`record.value` of the call): the server's result, kept whole. */
export interface McpToolResult {
  /** The content blocks as the server sent them (text, image, audio, resource links, resources). */
  readonly content: CallToolResult['content'];
  /** The server's structured result, when it sent one (and it was within `limits.maxResultChars` as JSON). */
  readonly structuredContent?: unknown;
  /** Set when text was cut or the structured result left out for `limits.maxResultChars`. */
  readonly cut?: true;
  /** The server's `_meta`, when it sent one. */
  readonly _meta?: Record<string, unknown>;
}

/**
 * The text a model reads for an MCP tool result: text blocks as they are,
 * other blocks described in one line (an image's type and size; a resource's
 * URI and its text when embedded), and the structured result as JSON when no
 * text block carries it. `redact` removes secrets; past `maxChars` the text
 * is cut with a note saying how much.
 *
 * @example
 * resultText({ content: [{ type: 'text', text: 'Sum: 5' }] }, (t) => t, 100_000); // 'Sum: 5'
 */
export function resultText(result: CallToolResult, redact: (text: string) => string, maxChars: number): string {
  const parts = (result.content ?? []).map(blockText);
  const texts = parts.filter((part) => part !== '');
  if (result.structuredContent !== undefined && !(result.content ?? []).some((block) => block.type === 'text')) {
    texts.push(JSON.stringify(result.structuredContent) ?? '');
  }
  return redact(cut(texts.join('\n'), maxChars));
}

/**
 * The program-facing value of a result, bounded like its text: each text
 * block cut at `maxChars`, the structured result left out when its JSON is
 * longer (`cut: true` says so).
 */
export function resultValue(result: CallToolResult, maxChars: number): McpToolResult {
  let wasCut = false;
  const content = (result.content ?? []).map((block) => {
    if (block.type !== 'text' || block.text.length <= maxChars) return block;
    wasCut = true;
    return { ...block, text: cut(block.text, maxChars) };
  });
  const value: { -readonly [K in keyof McpToolResult]: McpToolResult[K] } = { content };
  if (result.structuredContent !== undefined) {
    if ((JSON.stringify(result.structuredContent) ?? '').length <= maxChars) value.structuredContent = result.structuredContent;
    else wasCut = true;
  }
  if (result._meta !== undefined) value._meta = result._meta;
  if (wasCut) value.cut = true;
  return value;
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max)}… [${text.length - max} more characters cut: limits.maxResultChars is ${max}]`;
}

function blockText(block: CallToolResult['content'][number]): string {
  switch (block.type) {
    case 'text':
      return block.text;
    case 'image':
      return `[image: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'audio':
      return `[audio: ${block.mimeType}, ${base64Bytes(block.data)} bytes]`;
    case 'resource_link':
      return `[resource link: ${block.name} ${block.uri}${block.description ? ` — ${block.description}` : ''}]`;
    case 'resource': {
      const resource = block.resource;
      if ('text' in resource && typeof resource.text === 'string') return `[resource ${resource.uri}]\n${resource.text}`;
      return `[resource ${resource.uri}${resource.mimeType ? `, ${resource.mimeType}` : ''}]`;
    }
    default:
      return `[${(block as { type: string }).type} content]`;
  }
}

function base64Bytes(data: string): number {
  const padding = data.endsWith('==') ? 2 : data.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((data.length * 3) / 4) - padding);
}
