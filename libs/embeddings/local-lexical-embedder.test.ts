import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fnv1a } from './hash';
import { lexicalFeatures, unicodeFeatures } from './lexical-features';
import { LocalLexicalEmbedder } from './local-lexical-embedder';
import { noContentVector } from './vector';

const dot = (a: number[], b: number[]): number => a.reduce((sum, value, i) => sum + value * b[i]!, 0);
const norm = (a: number[]): number => Math.sqrt(dot(a, a));

describe('LocalLexicalEmbedder', () => {
  const embedder = new LocalLexicalEmbedder(384);

  it('says what it is', () => {
    assert.equal(embedder.id, 'local/lexical-hash-v1');
    assert.equal(embedder.dimensions, 384);
  });

  it('is deterministic across instances and calls, with fixed values', async () => {
    const text = 'Temporal retries the activity with backoff.';
    const [first] = await embedder.embed([text]);
    const [again] = await new LocalLexicalEmbedder(384).embed([text]);
    assert.deepEqual(first, again);
    // Pinned so that a change to the hashing is noticed (and the id's version bumped).
    const nonZero = first!.map((value, i) => [i, Math.round(value * 1e6) / 1e6]).filter(([, value]) => value !== 0);
    assert.deepEqual(nonZero, PINNED);
  });

  it('gives unit vectors of the configured dimension, one per text in order', async () => {
    for (const dimensions of [16, 384, 1536]) {
      const texts = ['a', 'hello world', 'The quick brown fox jumps over the lazy dog. '.repeat(30), '東京タワー'];
      const vectors = await new LocalLexicalEmbedder(dimensions).embed(texts);
      assert.equal(vectors.length, texts.length);
      for (const vector of vectors) {
        assert.equal(vector.length, dimensions);
        assert.ok(Math.abs(norm(vector) - 1) < 1e-9);
      }
    }
    assert.deepEqual(await embedder.embed([]), []);
  });

  it('puts texts sharing vocabulary closer than unrelated ones', async () => {
    const [query, related, unrelated] = await embedder.embed([
      'How do I reset my account password?',
      'To reset the password of your account, open settings and choose reset password.',
      'The invoice for March lists three shipments of steel pipes to the harbour.',
    ]);
    assert.ok(dot(query!, related!) > dot(query!, unrelated!) + 0.2, `${dot(query!, related!)} vs ${dot(query!, unrelated!)}`);
  });

  it('word order matters through word bigrams, but only a little', async () => {
    const [a, b, c] = await embedder.embed(['dog bites man', 'man bites dog', 'dog bites man']);
    assert.equal(dot(a!, c!), dot(a!, a!));
    assert.ok(dot(a!, b!) < 0.99 && dot(a!, b!) > 0.3);
  });

  it('normalises case and compatibility forms (NFKC)', async () => {
    const [plain, shouting, fullWidth, ligature] = await embedder.embed(['office 2024', 'OFFICE 2024', 'ｏｆｆｉｃｅ ２０２４', 'oﬃce 2024']);
    assert.deepEqual(shouting, plain);
    assert.deepEqual(fullWidth, plain);
    assert.deepEqual(ligature, plain);
  });

  it('handles accents, other alphabets and CJK without spaces', async () => {
    const [cafe, cafeDecomposed] = await embedder.embed(['café crème', 'cafe\u0301 cre\u0300me']);
    assert.deepEqual(cafeDecomposed, cafe);

    const [tokyo, tokyoTower, osaka] = await embedder.embed(['東京の天気', '東京タワーの天気予報', '大阪城公園']);
    assert.ok(dot(tokyo!, tokyoTower!) > dot(tokyo!, osaka!) + 0.2);

    const [hindi, hindiAgain, russian] = await embedder.embed(['हिन्दी भाषा', 'भाषा हिन्दी में', 'русский язык']);
    assert.ok(dot(hindi!, hindiAgain!) > 0.3, 'Devanagari words are not cut at vowel signs');
    assert.ok(dot(hindi!, hindiAgain!) > dot(hindi!, russian!));
  });

  it('hashes with standard FNV-1a (published test vectors)', () => {
    assert.equal(fnv1a(''), 0x811c9dc5);
    assert.equal(fnv1a('a'), 0xe40c292c);
    assert.equal(fnv1a('foobar'), 0xbf9cf968);
  });

  it('the ASCII fast path gives exactly the features of the general path', () => {
    for (const text of ['Hello, World! 42 times: hello-world_again', '', '  a  ', 'x'.repeat(300), 'Tab\tnew\nline']) {
      assert.deepEqual(lexicalFeatures(text), unicodeFeatures(text));
    }
    assert.equal(lexicalFeatures('a b').size, 3);
  });

  it('gives texts with no letters or digits a fixed unit vector, not the zero vector', async () => {
    const [empty, punctuation, spaces] = await embedder.embed(['', '?!… — ···', '   \n\t']);
    assert.deepEqual(empty, noContentVector(384));
    assert.deepEqual(punctuation, empty);
    assert.deepEqual(spaces, empty);
    assert.ok(Math.abs(norm(empty!) - 1) < 1e-9);
    const [text] = await embedder.embed(['an ordinary sentence about databases']);
    assert.ok(Math.abs(dot(empty!, text!)) < 0.3);
  });

  it('honours an aborted signal', async () => {
    const controller = new AbortController();
    controller.abort(new Error('cancelled'));
    await assert.rejects(embedder.embed(['x'], controller.signal), /cancelled/);
  });

  it('rejects an invalid dimension', () => {
    assert.throws(() => new LocalLexicalEmbedder(0), RangeError);
  });

  it('is fast: 20 000 chunks of about 1000 characters (timing printed, not asserted)', () => {
    const words = 'alpha beta gamma delta retrieval vector index search Temporal workflow activity chunk query document'.split(' ');
    const chunks = Array.from({ length: 20_000 }, (_, n) => {
      let text = '';
      for (let i = 0; text.length < 1000; i++) text += `${words[(n * 7 + i * 13) % words.length]}${(n + i) % 50} `;
      return text;
    });
    const started = performance.now();
    for (const chunk of chunks) embedder.embedOne(chunk);
    const ms = performance.now() - started;
    console.log(
      `local lexical embedder: ${chunks.length} chunks of ~1000 chars in ${ms.toFixed(0)} ms (${(((ms / chunks.length) * 100_000) / 1000).toFixed(1)} s per 100 000)`,
    );
    assert.ok(ms < 60_000);
  });
});

const PINNED: Array<[number, number]> = [
  [25, -0.301511],
  [98, 0.301511],
  [138, 0.301511],
  [210, 0.301511],
  [215, -0.301511],
  [224, 0.301511],
  [287, -0.301511],
  [289, -0.301511],
  [310, -0.301511],
  [368, -0.301511],
  [376, -0.301511],
];
