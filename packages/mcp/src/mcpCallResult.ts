import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/** A tool result as the program sees it (`record.value` of the call): the server's result, kept whole. */
export interface McpToolResult {
  /** The content blocks as the server sent them (text, image, audio, resource links, resources). */
  readonly content: CallToolResult['content'];
  /** The server's structured result, when it sent one. */
  readonly structuredContent?: Record<string, unknown>;
  /** The server's `_meta`, when it sent one. */
  readonly _meta?: Record<string, unknown>;
}

/**
 * The text a model reads for an MCP tool result: text blocks as they are,
 * other blocks described in one line (an image's type and size; a resource's
 * URI and its text when embedded), and the structured result as JSON when no
 * text block carries it. `redact` removes secrets.
 *
 * @example
 * resultText({ content: [{ type: 'text', text: 'Sum: 5' }] }, (t) => t); // 'Sum: 5'
 */
export function resultText(result: CallToolResult, redact: (text: string) => string): string {
  const parts = (result.content ?? []).map(blockText);
  const texts = parts.filter((part) => part !== '');
  if (result.structuredContent !== undefined && !(result.content ?? []).some((block) => block.type === 'text')) {
    texts.push(JSON.stringify(result.structuredContent));
  }
  return redact(texts.join('\n'));
}

/** The program-facing value of a result. */
export function resultValue(result: CallToolResult): McpToolResult {
  const value: { -readonly [K in keyof McpToolResult]: McpToolResult[K] } = { content: result.content ?? [] };
  if (result.structuredContent !== undefined) value.structuredContent = result.structuredContent;
  if (result._meta !== undefined) value._meta = result._meta;
  return value;
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
