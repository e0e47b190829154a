import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Scope } from '@pylon/contracts';
import { LocalLexicalEmbedder } from '@pylon/embeddings';
import { sql } from '../support/db';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createKey, createOrg, createTenant, createVersion, ingestDocument, waitForRun, type Tenant } from '../support/tenant';

const MATCH_FIELDS = ['chunk_id', 'chunk_index', 'content', 'doc_id', 'metadata', 'page_end', 'page_start', 'score', 'title'];

const HANDBOOK = `# Pylon handbook

## Runs
An agent run executes one immutable agent version on a text input. Runs move from queued to running to succeeded or failed.
Cancelling a run stops its workflow at once and leaves it failed with the error cancelled.

## Keys
API keys start with pyl_ and carry scopes. A revoked key stops working immediately.

## Billing
Every video generation costs five hundred thousand service tokens from the ledger.`;

describe('knowledge base', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let handbook: any;

  const search = (body: Record<string, unknown>, key = tenant.key) => http.post('/api/v1/knowledge/search', { token: key, body });
  const expectError = (response: { status: number; body: unknown }, status: number, code: string) => {
    assert.equal(response.status, status, JSON.stringify(response.body));
    assert.deepEqual(response.body, { error: code });
  };

  before(async () => {
    // A low exact-search threshold makes mid-sized organisations take the HNSW path in these tests.
    stack = await Stack.start({ env: { KB_CHUNK_SIZE: '200', KB_CHUNK_OVERLAP: '40', KB_EXACT_SEARCH_MAX_CHUNKS: '30' } });
    http = new Http(stack.url);
    tenant = await createTenant(http);
    handbook = await ingestDocument(http, tenant, { title: 'Handbook', content: HANDBOOK, metadata: { team: 'docs' } });
  });
  after(async () => stack?.stop());

  it('a document goes processing → ready, chunked, with a ready event carrying the document', async () => {
    assert.equal(handbook.status, 'ready');
    assert.ok(handbook.chunk_count >= 3, `chunk_count ${handbook.chunk_count}`);
    assert.deepEqual(handbook.metadata, { team: 'docs' });
    assert.equal(handbook.failure_reason, null);
    const chunks = await sql<{ content: string; start_offset: number; end_offset: number }>(
      `SELECT content, start_offset, end_offset FROM knowledge_chunks WHERE doc_id = $1 ORDER BY chunk_index`,
      [handbook.doc_id],
    );
    assert.equal(chunks.length, handbook.chunk_count);
    for (const chunk of chunks) assert.equal(HANDBOOK.slice(chunk.start_offset, chunk.end_offset), chunk.content);
    assert.equal((await sql(`SELECT 1 FROM knowledge_chunk_drafts WHERE doc_id = $1`, [handbook.doc_id])).length, 0);
    const events = await sql<{ type: string; data: any }>(`SELECT type, data FROM events WHERE resource_id = $1`, [handbook.doc_id]);
    assert.equal(events.length, 1);
    assert.equal(events[0]!.type, 'knowledge_document.ready');
    const current = await http.get(`/api/v1/knowledge/documents/${handbook.doc_id}`, { token: tenant.key });
    assert.deepEqual(events[0]!.data, current.body);
  });

  it('search returns the best chunks first, score = cosine similarity, with title and metadata', async () => {
    const response = await search({ org_id: tenant.orgId, query: 'how do I cancel a run' });
    assert.equal(response.status, 200);
    assert.deepEqual(Object.keys(response.body), ['matches']);
    const matches = response.body.matches as any[];
    assert.ok(matches.length > 0 && matches.length <= 6);
    assert.match(matches[0].content, /Cancelling a run/);
    for (const match of matches) {
      assert.deepEqual(Object.keys(match).sort(), MATCH_FIELDS);
      assert.equal(match.doc_id, handbook.doc_id);
      assert.equal(match.title, 'Handbook');
      assert.deepEqual(match.metadata, { team: 'docs' });
    }
    for (let i = 1; i < matches.length; i++) assert.ok(matches[i - 1].score >= matches[i].score, 'ranked by score');
    const embedder = new LocalLexicalEmbedder(384);
    const [query, first] = await embedder.embed(['how do I cancel a run', matches[0].content]);
    const cosine = query!.reduce((sum, value, i) => sum + value * first![i]!, 0);
    assert.ok(Math.abs(cosine - matches[0].score) < 1e-4, `score ${matches[0].score} vs cosine ${cosine}`);
  });

  it('match_count: default 6, 1 to 20 honoured', async () => {
    const content = Array.from({ length: 100 }, (_, i) => `Paragraph ${i} talks about widgets and gadgets number ${i}.`).join('\n\n');
    const many = await createTenant(http);
    await ingestDocument(http, many, { title: 'Widgets', content });
    const byDefault = await search({ org_id: many.orgId, query: 'widgets gadgets' }, many.key);
    assert.equal(byDefault.body.matches.length, 6);
    for (const count of [1, 7, 20]) {
      const response = await search({ org_id: many.orgId, query: 'widgets gadgets', match_count: count }, many.key);
      assert.equal(response.status, 200);
      assert.equal(response.body.matches.length, count);
    }
  });

  it('an empty knowledge base answers {"matches": []}', async () => {
    const empty = await createTenant(http);
    const response = await search({ org_id: empty.orgId, query: 'anything' }, empty.key);
    assert.equal(response.status, 200);
    assert.deepEqual(response.body, { matches: [] });
  });

  describe('4.3 errors', () => {
    it('401 without a key or with a bad one', async () => {
      expectError(await http.post('/api/v1/knowledge/search', { body: { org_id: tenant.orgId, query: 'x' } }), 401, 'missing_api_key');
      expectError(
        await http.post('/api/v1/knowledge/search', { token: 'pyl_nope', body: { org_id: tenant.orgId, query: 'x' } }),
        401,
        'invalid_api_key',
      );
    });

    it('403 without kb:read, and for another organisation', async () => {
      for (const scope of ['runs:create', 'runs:read', 'kb:write'] as Scope[]) {
        const key = await createKey(http, tenant.orgId, [scope]);
        expectError(await search({ org_id: tenant.orgId, query: 'x' }, key), 403, 'insufficient_scope');
      }
      const reader = await createKey(http, tenant.orgId, ['kb:read']);
      assert.equal((await search({ org_id: tenant.orgId, query: 'runs' }, reader)).status, 200);
      const other = await createOrg(http);
      expectError(await search({ org_id: other, query: 'x' }), 403, 'insufficient_scope');
    });

    const bad: Array<[string, Record<string, unknown>]> = [
      ['match_count 0', { match_count: 0 }],
      ['match_count 21', { match_count: 21 }],
      ['match_count 3.5', { match_count: 3.5 }],
      ['match_count "6"', { match_count: '6' }],
      ['match_count null', { match_count: null }],
      ['match_count true', { match_count: true }],
      ['query missing', { query: undefined }],
      ['query a number', { query: 5 }],
      ['query null', { query: null }],
      ['query empty', { query: '' }],
      ['org_id missing', { org_id: undefined }],
      ['org_id not a uuid', { org_id: 'acme' }],
      ['an extra property', { top_k: 3 }],
    ];
    for (const [label, change] of bad) {
      it(`400 for ${label}`, async () => {
        const body: Record<string, unknown> = { org_id: tenant.orgId, query: 'runs', ...change };
        for (const [field, value] of Object.entries(change)) if (value === undefined) delete body[field];
        expectError(await search(body), 400, 'invalid_request');
      });
    }

    it('400 for malformed JSON or a non-object body', async () => {
      expectError(
        await http.post('/api/v1/knowledge/search', { token: tenant.key, rawBody: '{"query":', headers: { 'content-type': 'application/json' } }),
        400,
        'invalid_request',
      );
      expectError(
        await http.post('/api/v1/knowledge/search', { token: tenant.key, rawBody: '[]', headers: { 'content-type': 'application/json' } }),
        400,
        'invalid_request',
      );
    });
  });

  it('tenant isolation: with many organisations, each sees only its own chunks', async () => {
    const orgs = await Promise.all(Array.from({ length: 20 }, () => createTenant(http)));
    const docs = await Promise.all(
      orgs.map((org, i) =>
        ingestDocument(http, org, {
          title: `Secret ${i}`,
          content: `The shared launch codeword of team ${i} is zebra${i}. Everyone uses zebra codewords for launches.`,
        }),
      ),
    );
    for (const [i, org] of orgs.entries()) {
      const response = await search({ org_id: org.orgId, query: 'launch codeword zebra', match_count: 20 }, org.key);
      assert.equal(response.status, 200);
      assert.ok(response.body.matches.length > 0);
      for (const match of response.body.matches) assert.equal(match.doc_id, docs[i].doc_id, `org ${i} saw another org's chunk`);
      expectError(await http.get(`/api/v1/knowledge/documents/${docs[(i + 1) % orgs.length].doc_id}`, { token: org.key }), 404, 'not_found');
    }
  });

  it('a small organisation gets its full top-k next to a large one, on the HNSW path too', async () => {
    const large = await createTenant(http);
    const bigText = Array.from(
      { length: 300 },
      (_, i) => `Section ${i}. The quarterly report discusses revenue item ${i} and forecast ${i * 7}.`,
    ).join('\n\n');
    const bigDoc = await ingestDocument(http, large, { title: 'Report', content: bigText });
    assert.ok(bigDoc.chunk_count > 30, `large org has ${bigDoc.chunk_count} chunks, above the exact threshold`);
    const mid = await createTenant(http);
    const midText = Array.from({ length: 160 }, (_, i) => `Note ${i}: revenue forecast for region ${i}.`).join('\n\n');
    const midDoc = await ingestDocument(http, mid, { title: 'Notes', content: midText });
    const small = await createTenant(http);
    await ingestDocument(http, small, { title: 'Tiny', content: 'Revenue forecast. Quarterly revenue.' });

    const smallHits = await search({ org_id: small.orgId, query: 'quarterly revenue forecast', match_count: 6 }, small.key);
    assert.equal(smallHits.body.matches.length, (await sql(`SELECT 1 FROM knowledge_chunks WHERE org_id = $1`, [small.orgId])).length);
    const midHits = await search({ org_id: mid.orgId, query: 'quarterly revenue forecast', match_count: 6 }, mid.key);
    assert.ok(midDoc.chunk_count > 30);
    assert.equal(midHits.body.matches.length, 6, 'the mid-sized org (HNSW path) still gets all 6');
    for (const match of midHits.body.matches) assert.equal(match.doc_id, midDoc.doc_id);
  });

  it('deleting a document removes its chunks from search at once', async () => {
    const org = await createTenant(http);
    const doc = await ingestDocument(http, org, { title: 'Ephemeral', content: 'The ephemeral document mentions platypus habitats.' });
    assert.equal((await search({ org_id: org.orgId, query: 'platypus' }, org.key)).body.matches.length, 1);
    const deleted = await http.delete(`/api/v1/knowledge/documents/${doc.doc_id}`, { token: org.key });
    assert.equal(deleted.status, 204);
    assert.deepEqual((await search({ org_id: org.orgId, query: 'platypus' }, org.key)).body, { matches: [] });
    expectError(await http.get(`/api/v1/knowledge/documents/${doc.doc_id}`, { token: org.key }), 404, 'not_found');
    expectError(await http.delete(`/api/v1/knowledge/documents/${doc.doc_id}`, { token: org.key }), 404, 'not_found');
    assert.equal((await sql(`SELECT 1 FROM knowledge_chunks WHERE doc_id = $1`, [doc.doc_id])).length, 0);
  });

  it('documents: idempotent create, list with cursor, validation and limits', async () => {
    const org = await createTenant(http);
    const body = { org_id: org.orgId, title: 'Once', content: 'Only once.' };
    const headers = { 'idempotency-key': `doc-${randomUUID()}` };
    const first = await http.post('/api/v1/knowledge/documents', { token: org.key, body, headers });
    const again = await http.post('/api/v1/knowledge/documents', { token: org.key, body, headers });
    assert.equal(first.status, 202);
    assert.equal(first.body.status, 'processing');
    assert.equal(again.body.doc_id, first.body.doc_id);
    expectError(
      await http.post('/api/v1/knowledge/documents', { token: org.key, body: { ...body, content: 'Other' }, headers }),
      409,
      'idempotency_key_reused',
    );
    const list = await http.get('/api/v1/knowledge/documents?limit=1', { token: org.key });
    assert.equal(list.status, 200);
    assert.equal(list.body.data.length, 1);
    assert.equal(list.body.data[0].doc_id, first.body.doc_id);
    assert.equal('content' in list.body.data[0], false);

    for (const invalid of [
      {},
      { ...body, title: '' },
      { ...body, content: 7 },
      { ...body, metadata: [1] },
      { ...body, metadata: 'x' },
      { ...body, extra: 1 },
    ]) {
      expectError(await http.post('/api/v1/knowledge/documents', { token: org.key, body: invalid }), 400, 'invalid_request');
    }
    const reader = await createKey(http, org.orgId, ['kb:read']);
    expectError(await http.post('/api/v1/knowledge/documents', { token: reader, body }), 403, 'insufficient_scope');
    expectError(
      await http.post('/api/v1/knowledge/documents', { token: org.key, body: { ...body, content: 'x'.repeat(600_000) } }),
      413,
      'payload_too_large',
    );
    expectError(await http.get('/api/v1/knowledge/documents/not-a-uuid', { token: org.key }), 400, 'invalid_request');
  });

  it('an agent run with knowledge_search answers from the documents it found, citing them', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'local/extractive',
      tools: [{ type: 'knowledge_search', match_count: 3 }],
    });
    const created = await http.post('/api/v1/agent-runs', {
      token: tenant.key,
      body: { org_id: tenant.orgId, agent_version_id: versionId, input: 'What happens when a key is revoked?' },
    });
    const { run } = await waitForRun(http, tenant.key, created.body.run_id);
    assert.equal(run.status, 'succeeded', run.error);
    assert.match(run.output, /offline extractive answerer/);
    assert.match(run.output, /revoked key stops working immediately/);
    assert.ok(run.output.includes(`[doc ${handbook.doc_id}]`), run.output);
  });

  it('local/extractive says so when the knowledge base has nothing', async () => {
    const empty = await createTenant(http, 'local/extractive', { tools: [{ type: 'knowledge_search' }] });
    const created = await http.post('/api/v1/agent-runs', {
      token: empty.key,
      body: { org_id: empty.orgId, agent_version_id: empty.versionId, input: 'Anything?' },
    });
    const { run } = await waitForRun(http, empty.key, created.body.run_id);
    assert.equal(run.status, 'succeeded');
    assert.match(run.output, /found nothing in this organisation's knowledge base/);
  });
});
