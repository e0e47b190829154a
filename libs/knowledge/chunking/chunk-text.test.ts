import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ChunkingOptions, type TextChunk, chunkText } from './index';
import { createRandom, generateText, int } from '../../../test/support/text-generator';

const wordSegmenter = new Intl.Segmenter('en', { granularity: 'word' });
const graphemeSegmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });
const isSpace = (char: string) => /\s/.test(char);

interface Reference {
  wordBounds: Set<number>;
  wordStarts: number[];
  /** word segment end by start, for every segment */
  wordEnd: Map<number, number>;
  tokenStarts: number[];
  graphemeBounds: Set<number>;
  headings: number[];
}

let cached: { text: string; reference: Reference } | undefined;

/** Boundaries computed the obvious way, line by line, independently of the implementation. */
function reference(text: string): Reference {
  if (cached?.text !== text) cached = { text, reference: computeReference(text) };
  return cached.reference;
}

/**
 * The segments of the whole text, found one line at a time (each line with its LF): UAX #29 always breaks
 * after an LF, for words (WB3a) as for grapheme clusters (GB4), so this is the whole text's segmentation,
 * without handing the segmenter a megabyte at once (its iterator is quadratic in the input's length).
 */
function* segmentsByLine(segmenter: Intl.Segmenter, text: string): Generator<{ index: number; segment: string }> {
  for (let start = 0; start < text.length;) {
    const newline = text.indexOf('\n', start);
    const end = newline === -1 ? text.length : newline + 1;
    for (const { index, segment } of segmenter.segment(text.slice(start, end))) yield { index: start + index, segment };
    start = end;
  }
}

function computeReference(text: string): Reference {
  const wordBounds = new Set([text.length]);
  const wordEnd = new Map<number, number>();
  const wordStarts: number[] = [];
  const tokenStarts: number[] = [];
  for (const { index, segment } of segmentsByLine(wordSegmenter, text)) {
    wordBounds.add(index);
    wordStarts.push(index);
    wordEnd.set(index, index + segment.length);
    if (segment.trim() !== '') tokenStarts.push(index);
  }
  const graphemeBounds = new Set([text.length]);
  for (const { index } of segmentsByLine(graphemeSegmenter, text)) graphemeBounds.add(index);
  const headings: number[] = [];
  let inFence = false;
  const lines = /[^\r\n]*(\r\n|\r|\n|$)/g;
  for (let match = lines.exec(text); match && match[0] !== ''; match = lines.exec(text)) {
    if (/^ {0,3}```/.test(match[0])) inFence = !inFence;
    else if (!inFence && /^ {0,3}#{1,6}([ \t]|\r|\n|$)/.test(match[0])) headings.push(match.index + match[0].indexOf('#'));
  }
  return { wordBounds, wordStarts, wordEnd, tokenStarts, graphemeBounds, headings };
}

function lineBreaks(gap: string): number {
  return (gap.match(/\r\n|[\n\r\u2028\v]/g) ?? []).length + 2 * (gap.match(/[\u2029\f]/g) ?? []).length;
}

/** Index of the first element ≥ value in an ascending array. */
function firstAtLeast(sorted: readonly number[], value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** What holds of any text's chunks, whatever its segments: slices in order, within size and overlap, covering every non-space. */
function checkLayout(text: string, options: ChunkingOptions, chunks: TextChunk[]): void {
  const { targetSize, overlap } = options;
  chunks.forEach((chunk, i) => {
    assert.equal(chunk.index, i);
    assert.equal(chunk.content, text.slice(chunk.start, chunk.end), `chunk ${i}: content is the slice`);
    assert.ok(chunk.content.length > 0, `chunk ${i}: not empty`);
    assert.ok(chunk.content.length <= targetSize, `chunk ${i}: ${chunk.content.length} > ${targetSize}`);
    assert.equal(chunk.content, chunk.content.trim(), `chunk ${i}: trimmed`);
    if (i > 0) {
      const previous = chunks[i - 1];
      assert.ok(chunk.start > previous.start, `chunk ${i}: start increases`);
      assert.ok(chunk.end > previous.end, `chunk ${i}: end increases`);
      assert.ok(chunk.start >= previous.end - overlap, `chunk ${i}: shares ${previous.end - chunk.start} > ${overlap}`);
    }
  });

  let covered = 0;
  for (const chunk of [...chunks, { start: text.length, end: text.length }]) {
    for (let i = covered; i < chunk.start; i++) assert.ok(isSpace(text[i]), `character ${i} (${JSON.stringify(text[i])}) is in no chunk`);
    covered = Math.max(covered, chunk.end);
  }
}

function checkChunks(text: string, options: ChunkingOptions, chunks: TextChunk[]): void {
  const { targetSize, overlap } = options;
  const ref = reference(text);
  checkLayout(text, options, chunks);

  chunks.forEach((chunk, i) => {
    for (const position of [chunk.start, chunk.end]) {
      assert.ok(ref.graphemeBounds.has(position), `chunk ${i}: ${position} splits a grapheme cluster`);
      if (!ref.wordBounds.has(position)) {
        const wordStart = ref.wordStarts[firstAtLeast(ref.wordStarts, position) - 1];
        const word = text.slice(wordStart, ref.wordEnd.get(wordStart));
        assert.ok(word.length > targetSize, `chunk ${i}: ${position} splits the word ${JSON.stringify(word)}`);
      }
    }
  });

  // A heading inside a chunk sits within the first quarter of it: past that it would start a new chunk.
  const headingFill = Math.ceil(targetSize * 0.25);
  const starts = chunks.map((c) => c.start);
  for (const heading of ref.headings) {
    let contentEnd = heading;
    while (isSpace(text[contentEnd - 1])) contentEnd--;
    // ends increase, so the chunks holding the heading inside are the last few starting before it
    for (let j = firstAtLeast(starts, heading) - 1; j >= 0 && chunks[j].end > heading; j--) {
      assert.ok(contentEnd - chunks[j].start < headingFill, `heading at ${heading} should start a chunk after chunk ${j}`);
    }
  }

  if (overlap > 0) {
    for (let i = 1; i < chunks.length; i++) {
      const [a, b] = [chunks[i - 1], chunks[i]];
      if (b.start < a.end) continue;
      const gap = text.slice(a.end, b.start);
      const structural = lineBreaks(gap) >= 2 || ref.headings[firstAtLeast(ref.headings, b.start)] === b.start;
      if (structural) continue;
      const from = Math.max(a.end - overlap, a.start + 1);
      if (!ref.wordBounds.has(a.end)) {
        for (let g = from; g < a.end; g++) assert.ok(!ref.graphemeBounds.has(g), `chunk ${i}: should overlap the hard split from ${g}`);
        continue;
      }
      // Legitimately no overlap only when no word starts in reach or the next word would no longer fit.
      const nextEnd = ref.wordEnd.get(b.start)!;
      const mustReach = nextEnd - b.start <= targetSize ? nextEnd : b.start + Math.ceil(targetSize / 2);
      const candidate = ref.tokenStarts[firstAtLeast(ref.tokenStarts, Math.max(from, mustReach - targetSize))];
      if (candidate < a.end) assert.fail(`chunk ${i}: could have started at ${candidate} to overlap chunk ${i - 1}`);
    }
  }
}

function options(random: () => number): ChunkingOptions {
  const targetSize = random() < 0.5 ? int(random, 10, 80) : int(random, 81, 600);
  const overlap = random() < 0.25 ? 0 : int(random, 0, Math.ceil(targetSize / 2) - 1);
  return { targetSize, overlap };
}

describe('chunkText properties', () => {
  it('hold over generated Markdown, CJK, emoji, URLs, blobs and CRLF texts', () => {
    for (let seed = 1; seed <= 300; seed++) {
      const random = createRandom(seed);
      const text = generateText(random, 12);
      for (let round = 0; round < 3; round++) {
        const opts = options(random);
        const chunks = chunkText(text, opts);
        try {
          checkChunks(text, opts, chunks);
          assert.deepEqual(chunkText(text, opts), chunks, 'deterministic');
        } catch (error) {
          (error as Error).message = `seed ${seed}, ${JSON.stringify(opts)}: ${(error as Error).message}`;
          throw error;
        }
      }
    }
  });
});

describe('chunkText examples', () => {
  it('gives no chunks for empty or whitespace-only text', () => {
    assert.deepEqual(chunkText('', { targetSize: 100, overlap: 10 }), []);
    assert.deepEqual(chunkText(' \r\n\t\u00a0\n\n  ', { targetSize: 100, overlap: 10 }), []);
  });

  it('treats a heading after a byte order mark as a heading', () => {
    const text = '\ufeff# Title\n\nIntro text that is long enough.\n\n## Next\n\nMore text here.';
    const chunks = chunkText(text, { targetSize: 50, overlap: 0 });
    assert.deepEqual(
      chunks.map((c) => c.content.split('\n')[0]),
      ['# Title', '## Next'],
    );
  });

  it('gives one trimmed chunk for a short text', () => {
    const text = '\n\n  # Hello\n\nA short note.  \n';
    assert.deepEqual(chunkText(text, { targetSize: 100, overlap: 20 }), [{ index: 0, content: '# Hello\n\nA short note.', start: 4, end: 26 }]);
  });

  it('starts a chunk at each heading once the current chunk is a quarter full', () => {
    const section = (title: string) => `## ${title}\n\nThis section talks about ${title.toLowerCase()} for a little while.`;
    const text = ['# Guide', section('Install'), section('Configure'), section('Deploy')].join('\n\n');
    const chunks = chunkText(text, { targetSize: 200, overlap: 30 });
    // "## Install" comes before a quarter of the first chunk, so it stays with the title.
    assert.deepEqual(
      chunks.map((c) => c.content.split('\n')[0]),
      ['# Guide', '## Configure', '## Deploy'],
    );
  });

  it('does not take shell comments in fenced code for headings', () => {
    const code = ['```sh', '# install the tools', 'npm ci', '# then build', 'npm run build', '```'].join('\n');
    const text = `Run these commands in a fresh checkout, in this order:\n\n${code}\n\nThat is all.`;
    const chunks = chunkText(text, { targetSize: 90, overlap: 0 });
    for (const chunk of chunks) assert.ok(!chunk.content.startsWith('# '), JSON.stringify(chunk.content));
  });

  it('prefers a paragraph break to a later sentence end, and a sentence end to a later space', () => {
    const first = 'The first paragraph is about sixty characters long, roughly.';
    const second = 'The second one is longer. It goes on and on with more words than fit.';
    const chunks = chunkText(`${first}\n\n${second}`, { targetSize: 100, overlap: 0 });
    assert.equal(chunks[0].content, first);
    const sentences = chunkText(second, { targetSize: 50, overlap: 0 });
    assert.equal(sentences[0].content, 'The second one is longer.');
  });

  it('overlaps by whole words, starting at a sentence when one is in reach', () => {
    const text = 'Alpha beta gamma delta epsilon. Zeta eta theta. Iota kappa. Lambda mu nu xi omicron pi rho.';
    const chunks = chunkText(text, { targetSize: 60, overlap: 25 });
    assert.equal(chunks[0].content, 'Alpha beta gamma delta epsilon. Zeta eta theta. Iota kappa.');
    // "Zeta" lies 27 characters back, beyond the overlap; "Iota" is the earliest sentence start in reach.
    assert.match(chunks[1].content, /^Iota kappa\. Lambda/);
    assert.equal(chunks.length, 2);
  });

  it('hard-splits only words longer than targetSize', () => {
    const blob = 'QUJD'.repeat(100);
    const text = `See ${blob} and also https://example.com/some/long/path/to/a/resource?query=value for details.`;
    const chunks = chunkText(text, { targetSize: 64, overlap: 0 });
    for (const chunk of chunks) assert.ok(chunk.content.length <= 64);
    const blobChunks = chunks.filter((c) => c.start < text.indexOf(blob) + blob.length && c.end > text.indexOf(blob));
    assert.ok(blobChunks.length >= 400 / 64);
    assert.equal(
      blobChunks.map((c) => text.slice(Math.max(c.start, text.indexOf(blob)), Math.min(c.end, text.indexOf(blob) + blob.length))).join(''),
      blob,
    );
    assert.ok(!chunks.some((c) => /^(ttps|ample|ome)/.test(c.content)), 'the URL is split between its words');
  });

  it('chunks CJK text without spaces on word boundaries and never splits emoji', () => {
    const text = '知識ベースの検索では、文書を小さな断片に分割します。日本語には単語の間に空白がありません。👩‍👩‍👧🇫🇷👍🏽'.repeat(5);
    const chunks = chunkText(text, { targetSize: 30, overlap: 8 });
    checkChunks(text, { targetSize: 30, overlap: 8 }, chunks);
    assert.ok(chunks.length > 5);
  });

  it('cuts a single grapheme cluster longer than targetSize without splitting a surrogate pair', () => {
    const cluster = 'a' + '\u{1D167}'.repeat(30); // 61 code units, one grapheme cluster
    const chunks = chunkText(`x ${cluster} y`, { targetSize: 10, overlap: 3 });
    for (const chunk of chunks) {
      assert.ok(chunk.content.length <= 10);
      assert.ok(!/^[\udc00-\udfff]|[\ud800-\udbff]$/.test(chunk.content), JSON.stringify(chunk.content));
    }
  });

  it('rejects invalid options', () => {
    for (const bad of [
      { targetSize: 0, overlap: 0 },
      { targetSize: 10.5, overlap: 0 },
      { targetSize: 10, overlap: 5 },
      { targetSize: 10, overlap: -1 },
      { targetSize: Number.NaN, overlap: 0 },
    ]) {
      assert.throws(() => chunkText('text', bad), RangeError, JSON.stringify(bad));
    }
  });

  it('chunks 1 MB of mixed Markdown with every property holding', () => {
    const random = createRandom(42);
    let text = '';
    while (text.length < 1_000_000) text += generateText(random, 40) + '\n\n';
    const opts = { targetSize: 1000, overlap: 150 };
    checkChunks(text, opts, chunkText(text, opts));
  });

  it('chunks a 1 MB line with no safe place to cut segmenter blocks, on its word boundaries', () => {
    const text = 'ab,cd,'.repeat(170_000);
    const opts = { targetSize: 1000, overlap: 100 };
    const chunks = chunkText(text, opts);
    checkLayout(text, opts, chunks);
    assert.equal(chunks.at(-1)!.end, text.length);
    // A comma joins only digits (UAX #29 WB11, WB12): "ab", ",", "cd" and "," are words, so no chunk starts
    // or ends inside "ab" or "cd", at 1 or 4 in the six-character period.
    for (const chunk of chunks) {
      for (const position of [chunk.start, chunk.end])
        assert.ok(position % 6 !== 1 && position % 6 !== 4, `chunk ${chunk.index}: ${position} splits a word`);
    }
  });
});
