/** A response body read up to a cap. */
export interface CappedBody {
  text: string;
  /** Bytes were left unread: the text is the first `maxBytes` of the body (a UTF-8 sequence cut at the end is dropped). */
  cut: boolean;
}

/**
 * Reads a response body as a stream and stops at `maxBytes`, cancelling the
 * rest: a huge (or endless) response costs at most `maxBytes` of memory.
 *
 * @example
 * const { text, cut } = await readCappedBody(response, 1_048_576);
 */
export async function readCappedBody(response: Response, maxBytes: number): Promise<CappedBody> {
  if (response.body === null) return { text: '', cut: false };
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let bytes = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), cut: false };
      const room = maxBytes - bytes;
      if (value.byteLength > room) {
        text += decoder.decode(value.subarray(0, room), { stream: true });
        await reader.cancel().catch(() => undefined);
        return { text, cut: true };
      }
      bytes += value.byteLength;
      text += decoder.decode(value, { stream: true });
    }
  } finally {
    reader.releaseLock();
  }
}
