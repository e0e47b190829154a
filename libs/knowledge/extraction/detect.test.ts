import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { describe, it } from 'node:test';
import { crc32, gzipSync } from 'node:zlib';
import { pdfWithPages, tinyPng, wordFile } from '../../../test/support/document-files';
import { WORD_CONTENT_TYPES, deflatedEntry, zipBytes } from '../../../test/support/zip-writer';
import { sniffing } from './detect';

const UPLOAD_CHUNK_BYTES = 16 * 1024;

/** Streams the bytes in chunks, as an upload's arrive, and answers what they were sniffed as. */
async function detect(bytes: string | Uint8Array): Promise<unknown> {
  const buffer = Buffer.from(bytes);
  const chunks = Array.from({ length: Math.ceil(buffer.length / UPLOAD_CHUNK_BYTES) }, (_, i) =>
    buffer.subarray(i * UPLOAD_CHUNK_BYTES, (i + 1) * UPLOAD_CHUNK_BYTES),
  );
  const { stream, sniffed } = sniffing(Readable.from(chunks));
  stream.resume();
  await finished(stream);
  return sniffed();
}

describe('detectDocumentType', () => {
  it('recognises a PDF and a Word file from their bytes', async () => {
    assert.deepEqual(await detect(await pdfWithPages([[{ text: 'hello', x: 50, y: 700 }]])), { supported: true, type: 'pdf' });
    assert.deepEqual(await detect(await wordFile()), { supported: true, type: 'docx' });
  });

  it('does not take a zip for a Word file unless it holds word/document.xml', async () => {
    assert.deepEqual(await detect(zipBytes([deflatedEntry('notes.txt', 'hello')])), { supported: false, detected: 'application/zip' });
    const workbook = await detect(zipBytes([WORD_CONTENT_TYPES, deflatedEntry('xl/workbook.xml', '<workbook/>')]));
    assert.equal((workbook as { supported: boolean }).supported, false);
    assert.deepEqual(await detect(zipBytes([WORD_CONTENT_TYPES, deflatedEntry('word/document.xml', '<w:document/>')])), {
      supported: true,
      type: 'docx',
    });
  });

  it('finds the Word part in the directory at the end of a zip much larger than the head it reads', async () => {
    const media = randomBytes(3 * 1024 * 1024);
    const image = { name: 'word/media/image1.png', data: media, method: 0 as const, crc32: crc32(media), declaredSize: media.length };
    assert.deepEqual(await detect(zipBytes([WORD_CONTENT_TYPES, image, deflatedEntry('word/document.xml', '<w:document/>')])), {
      supported: true,
      type: 'docx',
    });
  });

  it('recognises HTML after a byte order mark, whitespace and comments, in any case', async () => {
    assert.deepEqual(await detect('\uFEFF\n  <!-- saved from url=… -->\n<!DOCTYPE html><html><body>x</body></html>'), {
      supported: true,
      type: 'html',
    });
    assert.deepEqual(await detect('<HTML><BODY>shouting</BODY></HTML>'), { supported: true, type: 'html' });
    assert.deepEqual(await detect('<?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"><head></head></html>'), {
      supported: true,
      type: 'html',
    });
  });

  it('tells Markdown from plain text by its structure', async () => {
    assert.deepEqual(await detect('# Title\n\nSome words.\n'), { supported: true, type: 'markdown' });
    assert.deepEqual(await detect('Intro\n\n```js\nlet a = 1;\n```\n'), { supported: true, type: 'markdown' });
    assert.deepEqual(await detect('See:\n\n- [the docs](https://example.org/docs)\n- more\n'), { supported: true, type: 'markdown' });
    assert.deepEqual(await detect('Title\n=====\n\nText.\n'), { supported: true, type: 'markdown' });
    assert.deepEqual(await detect('Dear reader,\n\nthe harbour opens at 6 - weather permitting.\nRegards\n'), { supported: true, type: 'text' });
    assert.deepEqual(await detect('Ünïcödé plain text, no structure: 1. not a list because it is inline.'), { supported: true, type: 'text' });
  });

  it('names what an unsupported file is', async () => {
    assert.deepEqual(await detect(tinyPng()), { supported: false, detected: 'image/png' });
    assert.deepEqual(await detect(gzipSync('hello')), { supported: false, detected: 'application/gzip' });
    assert.deepEqual(await detect(Buffer.from('caf\xe9 cr\xe8me', 'latin1')), { supported: false, detected: 'text that is not UTF-8' });
    assert.deepEqual(await detect(Buffer.from([0x00, 0x01, 0x02, 0xfe, 0x00, 0x7f, 0x13])), { supported: false, detected: 'binary data' });
    assert.deepEqual(await detect(''), { supported: false, detected: 'an empty file' });
  });

  it('does not hold a multi-byte character cut at the end of the head against the text', async () => {
    const text = `# Heading\n\n${'é'.repeat(40_000)}`;
    assert.deepEqual(await detect(text), { supported: true, type: 'markdown' });
  });
});
