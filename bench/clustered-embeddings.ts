/**
 * Sentence-embedding-like vectors for the benchmark corpus, generated from its seed, and an
 * OpenAI-compatible `/v1/embeddings` server that hands them out, so the API ingests and searches them
 * through its real OpenAI provider (the network edge is the only thing replaced).
 *
 * Sentence embeddings such as `text-embedding-3-small` are not spread evenly over the sphere, which is
 * what the lexical embedder's hashed features nearly are. They share a common direction (two unrelated
 * texts have a cosine well above 0), cluster by subject, subjects group into broader domains, and a text
 * lies nearest to the texts that say the same specific things. This model builds each vector from those
 * parts:
 *
 *   v(text) = normalise( COMMON · g + SUBJECT · Σ_t share_t(text) · c_t + CONTENT · content(text) )
 *
 *  - g: one direction shared by every text;
 *  - c_t: the centroid of corpus topic t; 300 topics in 30 domains, c_t = normalise(d_domain + 0.8 · noise);
 *  - share_t: the share of the text's topic words that belong to topic t;
 *  - content: normalise(Σ_word weight(word) · r_word), a random unit vector per word weighted by its
 *    rarity, so a query made of a paragraph's rarer words lies near that paragraph.
 *
 * `similarityProfile` measures what this gives (in the benchmark's JSON).
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Corpus, mixSeed, prng } from './knowledge-corpus';

const DOMAINS = 30;
const COMMON = 0.55;
const SUBJECT = 0.75;
const CONTENT = 0.9;
const DOMAIN_NOISE = 0.8;

export const CLUSTERED_EMBEDDINGS_ID = 'bench/clustered-v1';

function gaussianVector(random: () => number, dimensions: number): Float64Array {
  const vector = new Float64Array(dimensions);
  for (let i = 0; i < dimensions; i += 2) {
    const u = Math.max(random(), 1e-12);
    const v = random();
    const r = Math.sqrt(-2 * Math.log(u));
    vector[i] = r * Math.cos(2 * Math.PI * v);
    if (i + 1 < dimensions) vector[i + 1] = r * Math.sin(2 * Math.PI * v);
  }
  return normalise(vector);
}

function normalise(vector: Float64Array): Float64Array {
  let norm = 0;
  for (const x of vector) norm += x * x;
  norm = Math.sqrt(norm) || 1;
  for (let i = 0; i < vector.length; i++) vector[i]! /= norm;
  return vector;
}

function addScaled(target: Float64Array, source: Float64Array, scale: number): void {
  for (let i = 0; i < target.length; i++) target[i]! += scale * source[i]!;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let dot = 0;
  for (let i = 0; i < a.length; i++) dot += a[i]! * b[i]!;
  return dot;
}

export class ClusteredEmbeddings {
  private readonly common: Float64Array;
  private readonly topicCentroids: Float64Array[];
  private readonly wordVectors: Float64Array[];
  private readonly topicsOfWord = new Map<number, number[]>();

  constructor(
    private readonly corpus: Corpus,
    readonly dimensions: number,
  ) {
    const random = prng(mixSeed(corpus.options.seed, 21));
    this.common = gaussianVector(random, dimensions);
    const domains = Array.from({ length: DOMAINS }, () => gaussianVector(random, dimensions));
    this.topicCentroids = corpus.topics.map((_, topic) => {
      const centroid = Float64Array.from(domains[topic % DOMAINS]!);
      addScaled(centroid, gaussianVector(random, dimensions), DOMAIN_NOISE);
      return normalise(centroid);
    });
    this.wordVectors = corpus.words.map(() => gaussianVector(random, dimensions));
    corpus.topics.forEach((words, topic) => {
      for (const rank of words) this.topicsOfWord.set(rank, [...(this.topicsOfWord.get(rank) ?? []), topic]);
    });
  }

  embed(text: string): number[] {
    const subject = new Float64Array(this.dimensions);
    const content = new Float64Array(this.dimensions);
    let topicWords = 0;
    for (const token of text.toLowerCase().match(/[a-z]+/g) ?? []) {
      const rank = this.corpus.rankOf.get(token);
      if (rank === undefined) continue;
      // Rare words say what a text is about; the most common ones say nearly nothing.
      addScaled(content, this.wordVectors[rank]!, Math.log1p(rank / 50));
      for (const topic of this.topicsOfWord.get(rank) ?? []) {
        addScaled(subject, this.topicCentroids[topic]!, 1);
        topicWords++;
      }
    }
    const vector = new Float64Array(this.dimensions);
    addScaled(vector, this.common, COMMON);
    if (topicWords > 0) addScaled(vector, normalise(subject), SUBJECT);
    addScaled(vector, normalise(content), CONTENT);
    return Array.from(normalise(vector));
  }
}

/** Mean cosines of pairs that should be far, near and nearest: what the JSON reports about the model. */
export function similarityProfile(model: ClusteredEmbeddings, corpus: Corpus, pairs = 200) {
  const random = prng(mixSeed(corpus.options.seed, 22));
  const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
  const unrelated: number[] = [];
  const sameOrganisation: number[] = [];
  const sameDocument: number[] = [];
  const querySource: number[] = [];
  for (let i = 0; i < pairs; i++) {
    const a = corpus.document(1000 + i, 0, 4);
    const b = corpus.document(5000 + i, 0, 4);
    const c = corpus.document(1000 + i, 1, 4);
    unrelated.push(cosine(model.embed(a.paragraphs[0]!), model.embed(b.paragraphs[0]!)));
    sameOrganisation.push(cosine(model.embed(a.paragraphs[0]!), model.embed(c.paragraphs[0]!)));
    sameDocument.push(cosine(model.embed(a.paragraphs[0]!), model.embed(a.paragraphs[1]!)));
    querySource.push(cosine(model.embed(corpus.query(random, a.paragraphs[2]!)), model.embed(a.paragraphs[2]!)));
  }
  const round = (value: number) => Math.round(value * 1000) / 1000;
  return {
    unrelatedParagraphs: round(mean(unrelated)),
    sameOrganisationOtherDocument: round(mean(sameOrganisation)),
    sameDocument: round(mean(sameDocument)),
    queryAndItsSourceParagraph: round(mean(querySource)),
  };
}

/** An OpenAI-compatible embeddings endpoint on 127.0.0.1 (float or base64 encoding, like the real one). */
export async function serveEmbeddings(model: ClusteredEmbeddings): Promise<{ baseUrl: string; requests: () => number; stop: () => Promise<void> }> {
  let requests = 0;
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      try {
        if (request.method !== 'POST' || !request.url?.endsWith('/embeddings')) throw Object.assign(new Error('not found'), { status: 404 });
        requests++;
        const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as {
          input: string | string[];
          model: string;
          dimensions?: number;
          encoding_format?: string;
        };
        const inputs = Array.isArray(body.input) ? body.input : [body.input];
        if (body.dimensions !== undefined && body.dimensions !== model.dimensions)
          throw Object.assign(new Error(`dimensions must be ${model.dimensions}`), { status: 400 });
        const data = inputs.map((input, index) => {
          const vector = model.embed(input);
          const embedding = body.encoding_format === 'base64' ? Buffer.from(Float32Array.from(vector).buffer).toString('base64') : vector;
          return { object: 'embedding', index, embedding };
        });
        const tokens = inputs.reduce((sum, input) => sum + Math.ceil(input.length / 4), 0);
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ object: 'list', data, model: body.model, usage: { prompt_tokens: tokens, total_tokens: tokens } }));
      } catch (error) {
        const status = (error as { status?: number }).status ?? 400;
        response.writeHead(status, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ error: { message: (error as Error).message, type: 'invalid_request_error' } }));
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests: () => requests,
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
