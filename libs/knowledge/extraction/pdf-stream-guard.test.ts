import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { deflateSync } from 'node:zlib';
import { pdfWithLines } from '../../../test/support/document-files';
import { contentStreamBomb, flateBomb, imageBomb, objectStreamBomb, pdfOfObjects, streamObject } from '../../../test/support/hostile-files';
import { guardPdfStreams } from './pdf-stream-guard';
import { ExtractionFailure } from './types';

const MIB = 1024 * 1024;
const LIMITS = { maxInflatedStreamBytes: 16 * MIB, maxUnpackedBytes: 40 * MIB };

function refusal(bytes: Buffer, limits = LIMITS): string {
  try {
    guardPdfStreams(bytes, limits);
  } catch (error) {
    assert.ok(error instanceof ExtractionFailure, String(error));
    return error.message;
  }
  return assert.fail('expected the PDF to be refused');
}

describe('guardPdfStreams', () => {
  it('lets an ordinary PDF through, its compressed streams inflated within the limits', async () => {
    const pdf = Buffer.from(await pdfWithLines([['A page', 'of ordinary text'], ['And another']]));
    assert.doesNotThrow(() => guardPdfStreams(pdf, LIMITS));
  });

  it('refuses a Flate bomb in a page content stream, an image and an object stream', () => {
    const bomb = 'a compressed stream in the file expands beyond 16 MiB (a decompression bomb?)';
    assert.equal(refusal(contentStreamBomb(32)), bomb);
    assert.equal(refusal(imageBomb(32)), bomb);
    assert.equal(refusal(objectStreamBomb(32)), bomb);
  });

  it('counts every stream against the limit of the whole file', () => {
    const streams = Array.from({ length: 4 }, () => streamObject('/Filter /FlateDecode', flateBomb(' ', 12)));
    assert.equal(refusal(pdfOfObjects(['<< /Type /Catalog >>', ...streams])), 'the file unpacks to more than 40 MiB (a decompression bomb?)');
  });

  it('inflates each FlateDecode of a chain, a bomb wrapped in a second Flate included', () => {
    const wrapped = deflateSync(flateBomb(' ', 32));
    assert.equal(
      refusal(pdfOfObjects(['<< /Type /Catalog >>', streamObject('/Filter [/FlateDecode /FlateDecode]', wrapped)])),
      'a compressed stream in the file expands beyond 16 MiB (a decompression bomb?)',
    );
  });

  it('leaves a stream it cannot inflate to pdf.js', () => {
    const garbage = streamObject('/Filter /FlateDecode', Buffer.from('not zlib at all'));
    assert.doesNotThrow(() => guardPdfStreams(pdfOfObjects(['<< /Type /Catalog >>', garbage]), LIMITS));
  });
});
