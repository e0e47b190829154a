import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { pdfWithLines } from '../../../test/support/document-files';
import { contentStreamBomb, hugePageTree } from '../../../test/support/hostile-files';
import { ExtractionPool, type ExtractionPoolSettings } from './extraction-pool';
import { ExtractionFailure, type ExtractionLimits } from './types';

const MIB = 1024 * 1024;
/** Limits that let the hostile files reach pdf.js, so that the pool's own limits are what stops them. */
const OPEN_LIMITS: ExtractionLimits = {
  maxTextChars: 100_000_000,
  maxUnpackedBytes: 1024 * MIB,
  maxInflatedStreamBytes: 1024 * MIB,
  maxPdfPages: 1_000_000,
  maxTextItemsPerPage: 100_000_000,
};
const SETTINGS: ExtractionPoolSettings = { threads: 1, timeoutMs: 60_000, pageTimeoutMs: 60_000, heapMb: 512 };

const directory = mkdtempSync(join(tmpdir(), 'pylon-extraction-pool-'));
after(() => rmSync(directory, { recursive: true, force: true }));

function file(name: string, bytes: Uint8Array): string {
  const path = join(directory, name);
  writeFileSync(path, bytes);
  return path;
}

/** A pool for one test, closed after it whatever happens. */
async function withPool(settings: ExtractionPoolSettings, test: (pool: ExtractionPool) => Promise<void>): Promise<void> {
  const pool = new ExtractionPool(settings);
  try {
    await test(pool);
  } finally {
    await pool.close();
  }
}

async function refusal(pool: ExtractionPool, path: string, limits = OPEN_LIMITS): Promise<string> {
  const error = await pool.extract(path, 'pdf', { limits }).then(
    () => assert.fail('expected the file to be refused'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ExtractionFailure, String(error));
  return error.message;
}

describe('ExtractionPool', () => {
  const ordinary = async () => file('ordinary.pdf', await pdfWithLines([['First page'], ['Second page']]));

  it('reads a file in a thread and reports each page done', () =>
    withPool(SETTINGS, async (pool) => {
      const progress: string[] = [];
      const document = await pool.extract(await ordinary(), 'pdf', {
        limits: OPEN_LIMITS,
        onProgress: (done, total) => progress.push(`${done}/${total}`),
      });
      assert.equal(document.text, 'First page\n\nSecond page\n');
      assert.deepEqual(document.pageStarts, [0, 12]);
      assert.deepEqual(progress, ['1/2', '2/2']);
    }));

  it('ends a file past its wall clock', () =>
    withPool({ ...SETTINGS, timeoutMs: 300 }, async (pool) => {
      assert.equal(await refusal(pool, file('pages.pdf', hugePageTree(30_000))), 'reading the file took longer than 0.3 s');
    }));

  it('ends a page past its wall clock, naming the page', () =>
    withPool({ ...SETTINGS, pageTimeoutMs: 100 }, async (pool) => {
      assert.equal(await refusal(pool, file('dense-page.pdf', contentStreamBomb(16))), 'reading page 1 of the file took longer than 0.1 s');
    }));

  it("ends a parse past its thread's heap, and the next file gets a new thread", () =>
    withPool({ ...SETTINGS, heapMb: 64 }, async (pool) => {
      assert.equal(await refusal(pool, file('swelling.pdf', contentStreamBomb(64))), 'reading the file needed more than 64 MiB of memory');
      assert.equal((await pool.extract(await ordinary(), 'pdf', { limits: OPEN_LIMITS })).text, 'First page\n\nSecond page\n');
    }));

  it('gives up on a page holding more pieces of text than allowed, ending the thread pdf.js is left busy in', () =>
    withPool(SETTINGS, async (pool) => {
      const limits = { ...OPEN_LIMITS, maxTextItemsPerPage: 1_000 };
      assert.equal(await refusal(pool, file('items.pdf', contentStreamBomb(1)), limits), 'page 1 of the PDF holds more than 1000 pieces of text');
      assert.equal((await pool.extract(await ordinary(), 'pdf', { limits: OPEN_LIMITS })).text, 'First page\n\nSecond page\n');
    }));

  it('stops when the caller cancels', () =>
    withPool(SETTINGS, async (pool) => {
      const cancel = new AbortController();
      const extraction = pool.extract(file('slow.pdf', hugePageTree(30_000)), 'pdf', { limits: OPEN_LIMITS, signal: cancel.signal });
      setTimeout(() => cancel.abort(new Error('cancelled by the test')), 100);
      await assert.rejects(extraction, /cancelled by the test/);
    }));
});
