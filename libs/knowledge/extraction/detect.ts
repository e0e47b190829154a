import type { Readable } from 'node:stream';
import { SampleReader, sampling, type FileSample } from './file-sample';
import { looksLikeMarkdown } from './markdown-heuristic';
import { sniffMediaType } from './media-type';
import type { FileDetection } from './types';
import { zipHoldsEntry } from './zip-guard';

/** `source`, sniffed as it is read: the stream to read, and what its bytes are once it has ended. */
export function sniffing(source: Readable): { stream: Readable; sniffed: () => Promise<FileDetection> } {
  const { stream, sample } = sampling(source);
  return { stream, sniffed: () => detectDocumentType(sample()) };
}

/** What a file is, from its bytes alone (never its name): its head, and the zip directory in its tail. */
export async function detectDocumentType(file: FileSample): Promise<FileDetection> {
  const { head } = file;
  if (head.length === 0) return { supported: false, detected: 'an empty file' };
  if (isPdf(head)) return { supported: true, type: 'pdf' };
  if (isZip(head)) {
    if (await zipHoldsEntry(new SampleReader(file), file.size, 'word/document.xml')) return { supported: true, type: 'docx' };
    return { supported: false, detected: (await sniffMediaType(head)) ?? 'application/zip' };
  }
  const text = utf8Text(head, head.length === file.size);
  if (text !== null) {
    if (looksLikeHtml(text)) return { supported: true, type: 'html' };
    return { supported: true, type: looksLikeMarkdown(text) ? 'markdown' : 'text' };
  }
  const mediaType = await sniffMediaType(head);
  if (mediaType) return { supported: false, detected: mediaType };
  return { supported: false, detected: head.includes(0) ? 'binary data' : 'text that is not UTF-8' };
}

/** `%PDF-` within the first KiB, where readers look for it (some files carry a few bytes before it). */
function isPdf(head: Buffer): boolean {
  return head.subarray(0, 1024).includes('%PDF-');
}

function isZip(head: Buffer): boolean {
  return head.length >= 4 && head.readUInt32LE(0) === 0x04034b50;
}

/**
 * The head as text when it is UTF-8 without NULs, else null. A multi-byte character the head cut in
 * two at its end (when it is not the whole file) does not count against it.
 */
function utf8Text(head: Buffer, whole: boolean): string | null {
  if (head.includes(0)) return null;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    return whole ? decoder.decode(head) : decoder.decode(head, { stream: true });
  } catch {
    return null;
  }
}

/** A doctype or an html/head/body tag first thing, after a byte order mark, whitespace, an XML prolog and comments. */
function looksLikeHtml(text: string): boolean {
  const rest = text.replace(/^\uFEFF/, '').replace(LEADING_NOISE, '');
  return HTML_START.test(rest);
}

const LEADING_NOISE = /^(\s+|<\?xml[^>]*\?>|<!--[\s\S]*?-->)*/;
const HTML_START = /^<(!doctype\s+html|html|head|body)[\s>/]/i;
