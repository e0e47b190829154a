import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { pdfWithPages, tinyPng, wordFile } from '../../../test/support/document-files';
import { WORD_CONTENT_TYPES, deflatedEntry, zipBytes } from '../../../test/support/zip-writer';
import { detectDocumentType } from './detect';

const directory = mkdtempSync(join(tmpdir(), 'pylon-detect-'));
after(() => rmSync(directory, { recursive: true, force: true }));

let files = 0;
/** Writes the bytes under a misleading name: detection must not look at it. */
async function detect(bytes: string | Uint8Array): Promise<unknown> {
  const path = join(directory, `upload-${files++}.txt`);
  writeFileSync(path, bytes);
  return detectDocumentType(path);
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
