import { open } from 'node:fs/promises';
import { looksLikeMarkdown } from './markdown-heuristic';
import { sniffMediaType } from './media-type';
import type { FileDetection } from './types';
import { zipHoldsEntry } from './zip-guard';

/** How much of the start of a file detection reads; the zip central directory is read on its own. */
const HEAD_BYTES = 64 * 1024;

/** What a file is, from its bytes alone (never its name). */
export async function detectDocumentType(path: string): Promise<FileDetection> {
  const head = await readHead(path, HEAD_BYTES);
  if (head.length === 0) return { supported: false, detected: 'an empty file' };
  if (isPdf(head)) return { supported: true, type: 'pdf' };
  if (isZip(head)) {
    if (await zipHoldsEntry(path, 'word/document.xml')) return { supported: true, type: 'docx' };
    return { supported: false, detected: (await sniffMediaType(head)) ?? 'application/zip' };
  }
  const text = utf8Text(head);
  if (text !== null) {
    if (looksLikeHtml(text)) return { supported: true, type: 'html' };
    return { supported: true, type: looksLikeMarkdown(text) ? 'markdown' : 'text' };
  }
  const mediaType = await sniffMediaType(head);
  if (mediaType) return { supported: false, detected: mediaType };
  return { supported: false, detected: head.includes(0) ? 'binary data' : 'text that is not UTF-8' };
}

async function readHead(path: string, bytes: number): Promise<Buffer> {
  const file = await open(path, 'r');
  try {
    const buffer = Buffer.alloc(bytes);
    const { bytesRead } = await file.read(buffer, 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
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
 * two at its end does not count against it.
 */
function utf8Text(head: Buffer): string | null {
  if (head.includes(0)) return null;
  const decoder = new TextDecoder('utf-8', { fatal: true });
  try {
    return head.length < HEAD_BYTES ? decoder.decode(head) : decoder.decode(head, { stream: true });
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
