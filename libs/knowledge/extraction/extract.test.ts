import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { imageOnlyPdf, pdfWithPages, wordFile } from '../../../test/support/document-files';
import { deflatedEntry, writeZip } from '../../../test/support/zip-writer';
import { type DocumentFileType, type ExtractionOptions, ExtractionFailure, extractDocument, pageRange } from './index';

const FIXTURES = join(__dirname, '../../../test/fixtures/knowledge');
const LIMITS = {
  maxTextChars: 200_000,
  maxUnpackedBytes: 50 * 1024 * 1024,
  maxInflatedStreamBytes: 16 * 1024 * 1024,
  maxPdfPages: 1_000,
  maxTextItemsPerPage: 50_000,
};
const directory = mkdtempSync(join(tmpdir(), 'pylon-extract-'));
after(() => rmSync(directory, { recursive: true, force: true }));

let files = 0;
function tempFile(bytes: string | Uint8Array): string {
  const path = join(directory, `file-${files++}`);
  writeFileSync(path, bytes);
  return path;
}

function extract(path: string, type: DocumentFileType, options: Partial<ExtractionOptions> = {}) {
  return extractDocument(path, type, { limits: LIMITS, ...options });
}

async function failure(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => assert.fail('expected an ExtractionFailure'),
    (caught: unknown) => caught,
  );
  assert.ok(error instanceof ExtractionFailure, String(error));
  return error.message;
}

describe('extractDocument: PDF', () => {
  it('extracts each page, in order, recording where each starts, with table rows on one line', async () => {
    const path = tempFile(
      await pdfWithPages([
        [{ text: 'Harbour survey, page one.', x: 50, y: 760 }],
        [
          { text: 'Inventory on page two', x: 50, y: 760 },
          { text: 'Item', x: 50, y: 700 },
          { text: 'Quantity', x: 250, y: 700 },
          { text: 'Anchor chain', x: 50, y: 680 },
          { text: '12', x: 250, y: 680 },
        ],
        [{ text: 'Conclusions on page three.', x: 50, y: 760 }],
      ]),
    );
    const progress: string[] = [];
    const { text, pageStarts } = await extract(path, 'pdf', { onProgress: (done, total) => progress.push(`${done}/${total}`) });
    assert.deepEqual(progress, ['1/3', '2/3', '3/3']);
    assert.ok(pageStarts);
    assert.equal(pageStarts.length, 3);
    const pages = pageStarts.map((start, i) => text.slice(start, pageStarts[i + 1] ?? text.length).trim());
    assert.deepEqual(pages, ['Harbour survey, page one.', 'Inventory on page two\nItem | Quantity\nAnchor chain | 12', 'Conclusions on page three.']);
    const two = text.indexOf('Anchor chain');
    assert.deepEqual(pageRange(two, two + 5, pageStarts), { pageStart: 2, pageEnd: 2 });
  });

  it('reads the reportlab fixture: every page, and the table a row per line', async () => {
    const { text, pageStarts } = await extract(join(FIXTURES, 'report.pdf'), 'pdf');
    assert.ok(pageStarts);
    assert.equal(pageStarts.length, 3);
    assert.match(text.slice(pageStarts[0], pageStarts[1]), /^# Quarterly report\nPage one introduces the harbour survey/);
    const pageTwo = text.slice(pageStarts[1], pageStarts[2]);
    assert.match(pageTwo, /^## Inventory\nPage two lists the equipment counted on site\.\n/);
    for (const row of ['Item | Quantity | Location', 'Anchor chain | 12 | Dock A', 'Buoy lamp | 7 | Dock B', 'Mooring rope | 30 | Warehouse']) {
      assert.ok(pageTwo.split('\n').includes(row), `row "${row}" in:\n${pageTwo}`);
    }
    assert.match(text.slice(pageStarts[2]), /^Page three closes with the survey's conclusions about silt\.\n$/);
  });

  it('refuses a password-protected PDF', async () => {
    assert.equal(await failure(extract(join(FIXTURES, 'encrypted.pdf'), 'pdf')), 'the PDF is protected by a password');
  });

  it('refuses a truncated PDF', async () => {
    const whole = await pdfWithPages([[{ text: 'first', x: 50, y: 700 }], [{ text: 'second', x: 50, y: 700 }]]);
    const half = tempFile(whole.subarray(0, Math.floor(whole.length / 2)));
    assert.equal(await failure(extract(half, 'pdf')), 'the file is not a readable PDF (it may be truncated or damaged)');
    const garbage = tempFile('%PDF-1.7\nnot really a pdf\n%%EOF\n');
    assert.equal(await failure(extract(garbage, 'pdf')), 'the file is not a readable PDF (it may be truncated or damaged)');
  });

  it('refuses a PDF of images only, saying OCR is not supported', async () => {
    const path = tempFile(await imageOnlyPdf(2));
    assert.equal(
      await failure(extract(path, 'pdf')),
      "no text found: the PDF's 2 pages have no text layer (a scanned document?); OCR is not supported",
    );
  });

  it('stops at the text limit, and when aborted', async () => {
    const path = tempFile(await pdfWithPages([[{ text: 'x'.repeat(60), x: 20, y: 700 }], [{ text: 'y'.repeat(60), x: 20, y: 700 }]]));
    assert.equal(await failure(extract(path, 'pdf', { limits: { ...LIMITS, maxTextChars: 100 } })), "the file's text is longer than 100 characters");
    const controller = new AbortController();
    controller.abort(new Error('cancelled by the test'));
    await assert.rejects(extract(path, 'pdf', { signal: controller.signal }), /cancelled by the test/);
  });
});

describe('extractDocument: Word', () => {
  it('turns a generated Word file into headings, list items and table rows', async () => {
    const { text, pageStarts } = await extract(tempFile(await wordFile()), 'docx');
    assert.equal(pageStarts, null);
    assert.equal(
      text,
      '# Harbour guide\n\nWelcome to the harbour.\n\n## Rules\n\n- No swimming near the locks\n- Moor only at marked berths\n\n## Fees\n\nBoat length | Fee per night\nUnder 10 m | 20 EUR\n',
    );
  });

  it('reads the python-docx fixture', async () => {
    const { text } = await extract(join(FIXTURES, 'headings.docx'), 'docx');
    assert.equal(
      text,
      '# Field manual\n\nThis manual explains how to calibrate the tide gauge.\n\n## Before you start\n\n- Check the battery\n- Clean the sensor\n\n## Readings\n\nStation | Level\nNorth pier | 2.4 m\nSouth pier | 1.9 m\n',
    );
  });

  it('refuses a zip that is not a Word file, and a damaged one', async () => {
    const plainZip = join(directory, 'plain.zip');
    writeZip(plainZip, [deflatedEntry('notes.txt', 'hello')]);
    assert.equal(await failure(extract(plainZip, 'docx')), 'the file is not a readable Word document');
    const brokenWord = join(directory, 'broken.docx');
    writeZip(brokenWord, [deflatedEntry('[Content_Types].xml', '<Types/>'), deflatedEntry('word/document.xml', 'not xml <<<')]);
    assert.equal(await failure(extract(brokenWord, 'docx')), 'the file is not a readable Word document');
    const word = await wordFile();
    assert.equal(await failure(extract(tempFile(word.subarray(0, word.length - 100)), 'docx')), 'the file is not a readable Word document');
  });
});

describe('extractDocument: HTML', () => {
  it('keeps the article of a saved web page and none of its scripts, styles, navigation or footer', async () => {
    const { text, pageStarts } = await extract(join(FIXTURES, 'saved-page.html'), 'html');
    assert.equal(pageStarts, null);
    assert.doesNotMatch(text, /MUST-NOT-APPEAR|trackingSecret|font-family|secret-style/);
    assert.equal(
      text,
      [
        '# Tide tables explained',
        'Tides rise and fall twice a day — roughly every 12 hours and 25 minutes.',
        '## Reading a table',
        "Each row gives a time and a height & the tide's direction.",
        'Time | Height | Direction\n06:12 | 3.1 m | High\n12:25 | 0.4 m | Low',
        '## Safety',
        '- Check the table before you go out.\n- Tell someone where you are going.',
        '```\ntide --port harbour\n  --days 2\n```\n',
      ].join('\n\n'),
    );
  });

  it('refuses a page with no text', async () => {
    const path = tempFile('<!doctype html><html><head><script>only()</script></head><body><nav>menu</nav></body></html>');
    assert.equal(await failure(extract(path, 'html')), 'no text found in the file');
  });
});

describe('extractDocument: Markdown and text', () => {
  it('drops the byte order mark and normalises line ends', async () => {
    const { text, pageStarts } = await extract(tempFile('\uFEFF# Title\r\n\r\nOne\rTwo\r\n'), 'markdown');
    assert.equal(text, '# Title\n\nOne\nTwo\n');
    assert.equal(pageStarts, null);
  });

  it('keeps a CRLF split across read chunks as one line end', async () => {
    const line = `${'a'.repeat(64 * 1024 - 1)}\r\nb`;
    const { text } = await extract(tempFile(line), 'text');
    assert.equal(text, `${'a'.repeat(64 * 1024 - 1)}\nb`);
  });

  it('refuses invalid UTF-8 past the detected head, too much text, and nothing but whitespace', async () => {
    const invalid = Buffer.concat([Buffer.from('ok '.repeat(30_000)), Buffer.from([0xff, 0xfe])]);
    assert.equal(await failure(extract(tempFile(invalid), 'text')), 'the file is not valid UTF-8 text');
    const long = tempFile('word '.repeat(1000));
    assert.equal(
      await failure(extract(long, 'text', { limits: { ...LIMITS, maxTextChars: 1000 } })),
      "the file's text is longer than 1000 characters",
    );
    assert.equal(await failure(extract(tempFile(' \n\n\t\n'), 'markdown')), 'no text found in the file');
  });

  it('reads a file the size of the limit exactly', async () => {
    const path = tempFile('z'.repeat(1000));
    assert.equal((await extract(path, 'text', { limits: { ...LIMITS, maxTextChars: 1000 } })).text.length, 1000);
  });
});
