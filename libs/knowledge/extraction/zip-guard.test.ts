import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { WORD_CONTENT_TYPES, deflatedEntry, spacesBombEntry, writeZip } from '../../../test/support/zip-writer';
import { ExtractionFailure, extractDocument } from './index';

const MIB = 1024 * 1024;
const MAX_UNPACKED = 50 * MIB;
const CHILD = join(__dirname, '../../../test/support/extract-in-child.js');
const directory = mkdtempSync(join(tmpdir(), 'pylon-zip-guard-'));
after(() => rmSync(directory, { recursive: true, force: true }));

/** Word-looking zips that unpack to 1 GiB of spaces: honest about it, declaring 4 GiB, or declaring 1 KiB. */
const bombs = {
  honest: () => spacesBombEntry('word/document.xml', 1024),
  hugeDeclared: () => spacesBombEntry('word/document.xml', 1, 0xffff_fff0),
  lying: () => spacesBombEntry('word/document.xml', 1024, 1024),
};
const BOMB_REASONS = {
  honest: 'the file unpacks to more than 50 MiB (a decompression bomb?)',
  hugeDeclared: 'the file unpacks to more than 50 MiB (a decompression bomb?)',
  lying: 'a part of the file unpacks to more than it declares (a decompression bomb?)',
};

function bombFile(kind: keyof typeof bombs): string {
  const path = join(directory, `${kind}.docx`);
  writeZip(path, [WORD_CONTENT_TYPES, bombs[kind]()]);
  return path;
}

async function reason(path: string, maxUnpackedBytes = MAX_UNPACKED): Promise<string> {
  const error = await extractDocument(path, 'docx', {
    limits: { maxTextChars: 1_000_000, maxUnpackedBytes, maxInflatedStreamBytes: maxUnpackedBytes, maxPdfPages: 1_000, maxTextItemsPerPage: 50_000 },
  }).then(
    () => assert.fail('expected an ExtractionFailure'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ExtractionFailure, String(error));
  return error.message;
}

/** Runs the extraction in a Node with a 64 MiB heap; resolves with its exit code and what it printed. */
function extractInSmallHeap(path: string): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['--max-old-space-size=64', CHILD, path, 'docx', String(MAX_UNPACKED)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

describe('the zip guard in front of mammoth', () => {
  it('the bombs are small files that unpack to 1 GiB', () => {
    assert.ok(statSync(bombFile('honest')).size < 2 * MIB);
    assert.ok(statSync(bombFile('lying')).size < 2 * MIB);
  });

  for (const kind of Object.keys(bombs) as (keyof typeof bombs)[]) {
    it(`refuses the ${kind} bomb in a 64 MiB heap, without running out of memory`, async () => {
      const result = await extractInSmallHeap(bombFile(kind));
      assert.equal(result.code, 0, `exit ${result.code} ${result.signal ?? ''}: ${result.stderr}`);
      const report = JSON.parse(result.stdout) as { failure: string; maxRssBytes: number };
      assert.equal(report.failure, BOMB_REASONS[kind]);
      // The heap limit does not bound Buffers; unguarded, mammoth's jszip reaches for the whole GiB.
      assert.ok(report.maxRssBytes < 200 * MIB, `peak resident memory ${Math.round(report.maxRssBytes / MIB)} MiB`);
    });
  }

  it('refuses an entry compressed more than 100:1 even under the total limit', async () => {
    const path = join(directory, 'ratio.docx');
    writeZip(path, [WORD_CONTENT_TYPES, spacesBombEntry('word/document.xml', 20)]);
    assert.equal(await reason(path), 'a part of the file is compressed more than 100:1 (a decompression bomb?)');
  });

  it('counts what every entry unpacks to against the limit, in all', async () => {
    const path = join(directory, 'many-parts.docx');
    const part = 'x'.repeat(600 * 1024);
    writeZip(path, [
      WORD_CONTENT_TYPES,
      deflatedEntry('word/document.xml', '<w:document/>'),
      ...[1, 2, 3, 4].map((n) => deflatedEntry(`word/media/part${n}.xml`, part)),
    ]);
    assert.equal(await reason(path, 2 * MIB), 'the file unpacks to more than 2 MiB (a decompression bomb?)');
  });

  it('refuses a zip of more parts than a Word file has, before reading their headers', async () => {
    const path = join(directory, 'crowded.docx');
    const empty = deflatedEntry('word/media/empty.xml', '');
    writeZip(path, [
      WORD_CONTENT_TYPES,
      deflatedEntry('word/document.xml', '<w:document/>'),
      ...Array.from({ length: 10_000 }, (_, n) => ({ ...empty, name: `word/media/${n}.xml` })),
    ]);
    assert.equal(await reason(path), 'the file holds more than 10000 parts (a decompression bomb?)');
  });
});
