import { createReadStream } from 'node:fs';
import { BoundedText, requireText } from './bounded-text';
import { reasons } from './reasons';
import { ExtractionFailure, type ExtractedDocument, type ExtractionOptions } from './types';

/** Markdown and plain text: the file's UTF-8 as it is, without a byte order mark, lines ending in \n. */
export async function extractPlainText(path: string, options: ExtractionOptions): Promise<ExtractedDocument> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const output = new BoundedText(options.limits.maxTextChars);
  let pendingCR = false;
  const push = (decoded: string) => {
    let text = (pendingCR ? '\r' : '') + decoded;
    pendingCR = text.endsWith('\r');
    if (pendingCR) text = text.slice(0, -1);
    output.append(normaliseLineEnds(text));
  };
  try {
    for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024, signal: options.signal })) {
      push(decoder.decode(chunk as Buffer, { stream: true }));
    }
    push(decoder.decode());
  } catch (error) {
    if (error instanceof TypeError && (error as { code?: string }).code === 'ERR_ENCODING_INVALID_ENCODED_DATA') {
      throw new ExtractionFailure(reasons.notUtf8);
    }
    throw error;
  }
  if (pendingCR) output.append('\n');
  options.onProgress?.(1, 1);
  return { text: requireText(output.toString().replaceAll('\0', '')), pageStarts: null };
}

function normaliseLineEnds(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}
