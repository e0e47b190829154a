import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from '../support/db';
import { Http } from '../support/http';
import { parsePrometheusText } from '../support/prometheus';
import { CLUSTER_TOPOLOGY, Stack } from '../support/stack';
import { createTenant, ingestDocument, type Tenant } from '../support/tenant';
import { until } from '../support/wait';

/** Documents with one chunk each, all sharing the word "lighthouse", with metadata of every JSON type. */
const DOCUMENTS = {
  alpha: {
    title: 'Alpha guide',
    content: 'The lighthouse keeper logs every ship that passes the harbour at night.',
    metadata: { category: 'guide', year: 2021, lang: 'en', public: true, published: '2024-03-01' },
  },
  beta: {
    title: 'Beta notes',
    content: 'Notes on the lighthouse lamp: the lens rotates twice a minute.',
    metadata: { category: 'notes', year: 2023, lang: 'de', public: false, published: '2025-01-15' },
  },
  gamma: {
    title: 'Gamma guide',
    content: 'A guide to lighthouse maintenance, from painting the tower to oiling gears.',
    metadata: { category: 'guide', year: 2024, lang: 'en', public: true },
  },
  delta: { title: 'Delta', content: 'The lighthouse was built in granite on a rock far from shore.', metadata: {} },
  epsilon: { title: 'Epsilon', content: 'Storms reached the lighthouse and its keeper every winter.', metadata: { category: 1, year: '2022' } },
  zeta: { title: 'title-doc', content: 'Ships steer by the lighthouse beam when the fog rolls in.', metadata: { title: 'meta title' } },
} as const;
type Name = keyof typeof DOCUMENTS;

describe('POST /api/v1/knowledge/query', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let other: Tenant;
  const docIds = new Map<Name, string>();
  const nameOf = (docId: string) => [...docIds].find(([, id]) => id === docId)?.[0] ?? `foreign:${docId}`;

  const query = (body: Record<string, unknown>) =>
    http.post('/api/v1/knowledge/query', { token: tenant.key, body: { org_id: tenant.orgId, ...body } });
  const matchedNames = async (filters: unknown, mode: string) => {
    const response = await query({ query: 'lighthouse', match_count: 50, mode, filters });
    assert.equal(response.status, 200, `${response.text} ${response.headers.get('error-detail')}`);
    return (response.body.matches as Array<{ doc_id: string }>).map((match) => nameOf(match.doc_id)).sort();
  };

  before(async () => {
    // Above 3 chunks the organisation gets its own HNSW index, and once it is ready an unfiltered vector leg takes
    // the HNSW path, so both paths are checked against the same answers.
    stack = await Stack.start({ env: { KB_CHUNK_SIZE: '1000', KB_CHUNK_OVERLAP: '0', KB_EXACT_SEARCH_MAX_CHUNKS: '3' } });
    http = new Http(stack.url);
    [tenant, other] = await Promise.all([createTenant(http), createTenant(http)]);
    await Promise.all(
      Object.entries(DOCUMENTS).map(async ([name, document]) => docIds.set(name as Name, (await ingestDocument(http, tenant, document)).doc_id)),
    );
    await ingestDocument(http, other, {
      title: 'Alpha guide',
      content: 'Another organisation also has a lighthouse keeper.',
      metadata: { category: 'guide' },
    });
    await until(
      "the organisation's own index ready",
      async () =>
        (await sql<{ status: string }>('SELECT status FROM knowledge_vector_indexes WHERE org_id = $1', [tenant.orgId]))[0]?.status === 'ready',
      { timeoutMs: 60_000 },
    );
    // Nothing searched this organisation's knowledge before: no API process has seen its index not ready (and kept
    // that for a second), so the first search reads it ready and an unfiltered vector leg takes the HNSW path.
  });
  after(async () => stack?.stop());

  const cases: Array<{ name: string; filters: unknown; expected: Name[] }> = [
    { name: 'eq on a string', filters: { type: 'eq', key: 'category', value: 'guide' }, expected: ['alpha', 'gamma'] },
    { name: 'eq on a number equals it whatever its notation', filters: { type: 'eq', key: 'year', value: 2021.0 }, expected: ['alpha'] },
    { name: 'eq on a boolean', filters: { type: 'eq', key: 'public', value: true }, expected: ['alpha', 'gamma'] },
    { name: 'eq never matches another type', filters: { type: 'eq', key: 'year', value: '2021' }, expected: [] },
    { name: 'eq on the title', filters: { type: 'eq', key: 'title', value: 'Beta notes' }, expected: ['beta'] },
    {
      name: 'metadata.<key> names a metadata key called title',
      filters: { type: 'eq', key: 'metadata.title', value: 'meta title' },
      expected: ['zeta'],
    },
    {
      name: 'ne matches other values, other types and documents without the key',
      filters: { type: 'ne', key: 'category', value: 'guide' },
      expected: ['beta', 'delta', 'epsilon', 'zeta'],
    },
    { name: 'gt on numbers skips strings', filters: { type: 'gt', key: 'year', value: 2022 }, expected: ['beta', 'gamma'] },
    { name: 'gte', filters: { type: 'gte', key: 'year', value: 2023 }, expected: ['beta', 'gamma'] },
    { name: 'lt', filters: { type: 'lt', key: 'year', value: 2023 }, expected: ['alpha'] },
    { name: 'lte', filters: { type: 'lte', key: 'year', value: 2023 }, expected: ['alpha', 'beta'] },
    { name: 'gt on ISO dates as strings', filters: { type: 'gt', key: 'published', value: '2024-06-01' }, expected: ['beta'] },
    { name: 'lt on the title', filters: { type: 'lt', key: 'title', value: 'C' }, expected: ['alpha', 'beta'] },
    { name: 'in', filters: { type: 'in', key: 'lang', value: ['de', 'fr'] }, expected: ['beta'] },
    {
      name: 'in with values of several types',
      filters: { type: 'in', key: 'category', value: ['guide', 1] },
      expected: ['alpha', 'epsilon', 'gamma'],
    },
    {
      name: 'nin matches documents without the key',
      filters: { type: 'nin', key: 'lang', value: ['en'] },
      expected: ['beta', 'delta', 'epsilon', 'zeta'],
    },
    {
      name: 'and',
      filters: {
        type: 'and',
        filters: [
          { type: 'eq', key: 'category', value: 'guide' },
          { type: 'gt', key: 'year', value: 2022 },
        ],
      },
      expected: ['gamma'],
    },
    {
      name: 'or',
      filters: {
        type: 'or',
        filters: [
          { type: 'eq', key: 'lang', value: 'de' },
          { type: 'eq', key: 'title', value: 'Delta' },
        ],
      },
      expected: ['beta', 'delta'],
    },
    {
      name: 'nested and/or',
      filters: {
        type: 'and',
        filters: [
          {
            type: 'or',
            filters: [
              { type: 'eq', key: 'category', value: 'guide' },
              { type: 'in', key: 'title', value: ['Delta', 'Epsilon'] },
            ],
          },
          { type: 'ne', key: 'lang', value: 'en' },
        ],
      },
      expected: ['delta', 'epsilon'],
    },
  ];

  for (const { name, filters, expected } of cases) {
    it(`filter: ${name}, in every mode`, async () => {
      for (const mode of ['vector', 'keyword', 'hybrid']) {
        assert.deepEqual(await matchedNames(filters, mode), [...expected].sort(), `mode ${mode}`);
      }
    });
  }

  it('without a filter every mode finds all of the organisation’s documents and none of another’s', async () => {
    for (const mode of ['vector', 'keyword', 'hybrid']) {
      assert.deepEqual(await matchedNames(undefined, mode), [...docIds.keys()].sort(), `mode ${mode}`);
    }
    // Those unfiltered vector legs took the HNSW path: the API set the index's tuning for them (metrics are each
    // process's own, so this reads the one API of a single-replica stack).
    if (!CLUSTER_TOPOLOGY) {
      const metrics = parsePrometheusText(await (await fetch(`${stack.url}/metrics`)).text());
      const tunings = metrics.samples.filter(
        (sample) => sample.name === 'pylon_db_statements_total' && sample.labels.statement!.startsWith("SELECT set_config('hnsw.ef_search'"),
      );
      assert.ok(
        tunings.some((sample) => sample.value > 0),
        'no search took the HNSW path',
      );
    }
  });

  it('hybrid fuses the legs by reciprocal rank fusion, each leg ranked as its own mode ranks', async () => {
    const text = 'keeper of the harbour at night';
    const [vector, keyword, hybrid] = await Promise.all(
      ['vector', 'keyword', 'hybrid'].map(async (mode) => {
        const response = await query({ query: text, match_count: 50, mode });
        assert.equal(response.status, 200, response.text);
        return response.body.matches as any[];
      }),
    );
    const vectorRank = new Map(vector.map((match, index) => [match.chunk_id, index + 1]));
    const keywordRank = new Map(keyword.map((match, index) => [match.chunk_id, index + 1]));
    assert.ok(keyword.length < vector.length, 'the keyword leg finds only chunks sharing a word');
    const expected = [...new Set([...vectorRank.keys(), ...keywordRank.keys()])]
      .map((chunkId) => {
        const v = vectorRank.get(chunkId);
        const k = keywordRank.get(chunkId);
        return { chunkId, score: (((v ? 1 / (60 + v) : 0) + (k ? 1 / (60 + k) : 0)) * 61) / 2 };
      })
      .sort((a, b) => b.score - a.score || (a.chunkId < b.chunkId ? -1 : 1));
    assert.deepEqual(
      hybrid.map((match) => match.chunk_id),
      expected.map((entry) => entry.chunkId),
    );
    for (const [index, match] of hybrid.entries()) {
      assert.ok(Math.abs(match.score - expected[index]!.score) < 1e-9, `score of ${match.chunk_id}`);
      assert.equal(match.vector_rank, vectorRank.get(match.chunk_id) ?? null);
      assert.equal(match.keyword_rank, keywordRank.get(match.chunk_id) ?? null);
      assert.deepEqual(match.found_by, [...(match.vector_rank ? ['vector'] : []), ...(match.keyword_rank ? ['keyword'] : [])]);
    }
    assert.equal(nameOf(hybrid[0].doc_id), 'alpha', 'the chunk both legs rank first');
    assert.ok(Math.abs(hybrid[0].score - 1) < 1e-9);
    for (const match of vector) assert.equal(match.score, match.vector_similarity);
    for (const match of keyword) {
      assert.equal(match.score, match.keyword_score);
      assert.ok(match.score > 0 && match.score < 1);
    }
  });

  it('match_count and score_threshold cut the list from the bottom', async () => {
    const all = (await query({ query: 'lighthouse keeper', match_count: 50 })).body.matches as any[];
    const top2 = (await query({ query: 'lighthouse keeper', match_count: 2 })).body.matches as any[];
    assert.deepEqual(
      top2.map((match) => match.chunk_id),
      all.slice(0, 2).map((match) => match.chunk_id),
    );
    const threshold = all[2].score;
    const kept = (await query({ query: 'lighthouse keeper', match_count: 50, score_threshold: threshold })).body.matches as any[];
    assert.deepEqual(
      kept.map((match) => match.chunk_id),
      all.filter((match) => match.score >= threshold).map((match) => match.chunk_id),
    );
  });

  it('a query with no searchable word finds nothing by keyword and still answers by vector', async () => {
    const keyword = await query({ query: 'the of and', mode: 'keyword' });
    assert.equal(keyword.status, 200, keyword.text);
    assert.deepEqual(keyword.body.matches, []);
    const hybrid = await query({ query: "it's \\ 'quoted' & | ! (x)", mode: 'hybrid' });
    assert.equal(hybrid.status, 200, hybrid.text);
  });

  const badFilters: Array<[string, unknown, RegExp]> = [
    ['an unknown operator', { type: 'like', key: 'title', value: 'x' }, /filters\.type must be one of/],
    ['a missing key', { type: 'eq', value: 'x' }, /filters\.key must be a string/],
    ['an empty metadata key', { type: 'eq', key: 'metadata.', value: 'x' }, /filters\.key names no metadata key/],
    ['an array for eq', { type: 'eq', key: 'a', value: ['x'] }, /filters\.value must be a string or number or boolean/],
    ['an object value', { type: 'ne', key: 'a', value: { x: 1 } }, /filters\.value must be/],
    ['a boolean for gt', { type: 'gt', key: 'a', value: true }, /filters\.value must be a string or number/],
    ['an empty set', { type: 'in', key: 'a', value: [] }, /filters\.value must be an array of 1 to 100/],
    ['a null in a set', { type: 'nin', key: 'a', value: ['x', null] }, /filters\.value\[1\] must be/],
    ['an unknown property', { type: 'eq', key: 'a', value: 1, extra: true }, /filters has an unknown property/],
    ['an empty compound', { type: 'and', filters: [] }, /filters\.filters must be a non-empty array/],
    [
      'a bad nested filter',
      {
        type: 'or',
        filters: [
          { type: 'eq', key: 'a', value: 1 },
          { type: 'lt', key: 'b' },
        ],
      },
      /filters\.filters\[1\]\.value must be/,
    ],
    [
      'nesting deeper than 5',
      [0, 1, 2, 3, 4, 5].reduce<unknown>((inner) => ({ type: 'and', filters: [inner] }), { type: 'eq', key: 'a', value: 1 }),
      /deeper than 5/,
    ],
    [
      'more than 50 comparisons',
      { type: 'or', filters: Array.from({ length: 51 }, (_, i) => ({ type: 'eq', key: 'a', value: i })) },
      /more than 50 comparisons/,
    ],
  ];
  for (const [name, filters, detail] of badFilters) {
    it(`a filter with ${name} → 400 invalid_request, the reason in Error-Detail`, async () => {
      const response = await query({ query: 'lighthouse', filters });
      assert.equal(response.status, 400, response.text);
      assert.deepEqual(response.body, { error: 'invalid_request' });
      assert.match(response.headers.get('error-detail') ?? '', detail);
    });
  }

  it('odd but valid filter values are compared, never a 500', async () => {
    for (const filters of [
      { type: 'eq', key: 'year', value: 1e308 },
      { type: 'lt', key: 'year', value: -0 },
      { type: 'eq', key: `we'ird "key" \\ ✓`, value: `it's a \\ 'quoted' value` },
      { type: 'in', key: 'metadata.metadata.title', value: ['', 0, false] },
      { type: 'gte', key: 'title', value: '' },
    ]) {
      const response = await query({ query: 'lighthouse', filters });
      assert.equal(response.status, 200, `${JSON.stringify(filters)}: ${response.text} ${response.headers.get('error-detail')}`);
    }
  });

  it('rejects bad bodies and other organisations like the seed search', async () => {
    const badBodies = [
      { query: 'x', mode: 'fuzzy' },
      { query: 'x', mode: null },
      { query: 'x', match_count: 51 },
      { query: 'x', match_count: 2.5 },
      { query: 'x', score_threshold: 2 },
      { query: 'x', score_threshold: '0.5' },
      { query: 'x', filters: [] },
      { query: 'x', filters: null },
      { query: 'x', filters: 'eq' },
      { query: 'x', extra: 1 },
      { query: '' },
      { query: 'x'.repeat(4_001) },
    ];
    for (const body of badBodies) {
      const response = await query(body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.deepEqual(response.body, { error: 'invalid_request' });
    }
    const foreign = await http.post('/api/v1/knowledge/query', { token: tenant.key, body: { org_id: other.orgId, query: 'lighthouse' } });
    assert.equal(foreign.status, 403);
    assert.deepEqual(foreign.body, { error: 'insufficient_scope' });
  });
});
