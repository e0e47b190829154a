import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { knowledgeIngestWorkflowId } from '@pylon/contracts';
import { sql } from '../support/db';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { testInfra } from '../support/infra';
import { createKey, createTenant, ingestDocument, waitForDocument, type Tenant } from '../support/tenant';
import { pause, until } from '../support/wait';

/**
 * Revisions: `PUT /api/v1/knowledge/documents/{doc_id}` replaces a document in place. The embedder is the
 * openai one against a local OpenAI-compatible server (the network edge), so a revision can be made to
 * fail honestly (the provider refuses its input) and its embedding slowed down; its vectors are a
 * bag of words, so search ranks by shared words.
 */
describe('knowledge document revisions', () => {
  let fake: FakeOpenAi;
  let stack: Stack;
  let http: Http;
  let temporal: Client;

  /** Every word of a revision carries its marker, so each chunk tells which revision it came from. */
  const text = (marker: string, sentences = 6) =>
    Array.from({ length: sentences }, (_, i) => `${marker}${i} ${marker}light ${marker}keeper ${marker}tower ${marker}lamp.`).join(' ');
  const markersOf = (contents: string[], markers: string[]) =>
    new Set(contents.map((content) => markers.filter((marker) => content.includes(marker)).join('+') || 'none'));

  const put = (tenant: Tenant, docId: string, body: Record<string, unknown>, headers?: Record<string, string>) =>
    http.put(`/api/v1/knowledge/documents/${docId}`, { token: tenant.key, body: { org_id: tenant.orgId, ...body }, headers });
  const search = async (tenant: Tenant, query: string, matchCount = 20) => {
    const response = await http.post('/api/v1/knowledge/search', {
      token: tenant.key,
      body: { org_id: tenant.orgId, query, match_count: matchCount },
    });
    assert.equal(response.status, 200, response.text);
    return response.body.matches as Array<{ doc_id: string; content: string; chunk_id: string }>;
  };
  const chunkContents = async (docId: string) =>
    (await sql<{ content: string }>(`SELECT content FROM knowledge_chunks WHERE doc_id = $1 ORDER BY chunk_index`, [docId])).map(
      (row) => row.content,
    );
  const expectError = (response: { status: number; body: unknown; text: string }, status: number, code: string) => {
    assert.equal(response.status, status, response.text);
    assert.deepEqual(response.body, { error: code });
  };

  before(async () => {
    fake = await FakeOpenAi.start();
    fake.embed = (input, dimensions) => {
      const vector = new Array<number>(dimensions).fill(0);
      const words = input.toLowerCase().match(/[a-z]+/g) ?? ['empty'];
      for (const word of words) vector[createHash('sha256').update(word).digest().readUInt32BE(0) % dimensions]! += 1;
      const norm = Math.hypot(...vector);
      return vector.map((value) => value / norm);
    };
    stack = await Stack.start({
      env: {
        EMBEDDING_PROVIDER: 'openai',
        OPENAI_API_KEY: 'sk-test-fake',
        OPENAI_BASE_URL: fake.baseUrl,
        // 2 chunks a batch, 4 batches at once: a document of more than 8 chunks takes the batched path (drafts).
        EMBEDDING_BATCH_SIZE: '2',
        KB_CHUNK_SIZE: '100',
        KB_CHUNK_OVERLAP: '20',
      },
    });
    http = new Http(stack.url);
    temporal = new Client({ connection: await Connection.connect({ address: testInfra().temporalAddress }) });
  });
  after(async () => {
    await temporal?.connection.close();
    await stack?.stop();
    await fake?.stop();
  });

  it('a replacement becomes revision 2: processing at once, then ready; search finds the new text only, the old chunks are gone', async () => {
    const tenant = await createTenant(http);
    const first = await ingestDocument(http, tenant, { title: 'Lighthouse', content: text('amber'), metadata: { team: 'docs' } });
    assert.equal(first.status, 'ready');
    assert.equal(first.revision, 1);
    assert.equal(first.ready_revision, 1);

    const replaced = await put(tenant, first.doc_id, { content: text('cobalt') });
    assert.equal(replaced.status, 202, replaced.text);
    assert.equal(replaced.body.doc_id, first.doc_id);
    assert.equal(replaced.body.revision, 2);
    assert.equal(replaced.body.status, 'processing');
    assert.equal(replaced.body.ready_revision, 1, 'search still serves revision 1');
    assert.equal(replaced.body.title, 'Lighthouse', 'an absent title is kept');
    assert.deepEqual(replaced.body.metadata, { team: 'docs' }, 'absent metadata is kept');

    const ready = await waitForDocument(http, tenant.key, first.doc_id);
    assert.equal(ready.status, 'ready', JSON.stringify(ready));
    assert.equal(ready.revision, 2);
    assert.equal(ready.ready_revision, 2);
    assert.equal(ready.failure_reason, null);
    const matches = await search(tenant, 'cobaltlight amberlight lamp');
    assert.ok(matches.length > 0);
    assert.deepEqual(
      markersOf(
        matches.map((match) => match.content),
        ['amber', 'cobalt'],
      ),
      new Set(['cobalt']),
    );
    const chunks = await chunkContents(first.doc_id);
    assert.equal(chunks.length, ready.chunk_count);
    assert.deepEqual(markersOf(chunks, ['amber', 'cobalt']), new Set(['cobalt']), 'the old chunks are gone from knowledge_chunks');
    assert.equal((await sql(`SELECT 1 FROM knowledge_chunk_drafts WHERE doc_id = $1`, [first.doc_id])).length, 0);
    const events = await sql<{ type: string; data: any }>(`SELECT type, data FROM events WHERE resource_id = $1 ORDER BY created_at`, [first.doc_id]);
    assert.deepEqual(
      events.map((event) => [event.type, event.data.revision, event.data.ready_revision]),
      [
        ['knowledge_document.ready', 1, 1],
        ['knowledge_document.ready', 2, 2],
      ],
    );

    const retitled = await put(tenant, first.doc_id, { content: text('cobalt'), title: 'Beacon', metadata: { team: 'ops' } });
    assert.equal(retitled.status, 202, retitled.text);
    assert.equal(retitled.body.revision, 3);
    const third = await waitForDocument(http, tenant.key, first.doc_id);
    assert.equal(third.ready_revision, 3);
    assert.equal(third.title, 'Beacon');
    assert.deepEqual(third.metadata, { team: 'ops' });
    assert.equal((await search(tenant, 'cobaltlamp'))[0]?.doc_id, first.doc_id);
  });

  it('a large revision goes through drafts of its own revision, with progress, and swaps in whole', async () => {
    const tenant = await createTenant(http);
    const doc = await ingestDocument(http, tenant, { title: 'Big', content: text('amber', 20) });
    assert.ok(doc.chunk_count > 8, `chunk_count ${doc.chunk_count}: the batched path`);
    fake.enqueueEmbeddings(...Array.from({ length: 6 }, () => ({ delayMs: 200 })));
    const replaced = await put(tenant, doc.doc_id, { content: text('cobalt', 22) });
    assert.equal(replaced.status, 202, replaced.text);
    let sawDrafts = false;
    for (const deadline = Date.now() + 20_000; Date.now() < deadline;) {
      const drafts = await sql<{ revision: number }>(`SELECT DISTINCT revision FROM knowledge_chunk_drafts WHERE doc_id = $1`, [doc.doc_id]);
      if (drafts.length > 0) {
        assert.deepEqual(
          drafts.map((row) => row.revision),
          [2],
        );
        sawDrafts = true;
      }
      const current = (await http.get(`/api/v1/knowledge/documents/${doc.doc_id}`, { token: tenant.key })).body;
      if (current.status !== 'processing') break;
      await pause(30); // sampled every 30 ms while it is processing: the drafts are there only meanwhile
    }
    fake.discardQueuedEmbeddings();
    assert.ok(sawDrafts, 'revision 2 was chunked into drafts of revision 2');
    const ready = await waitForDocument(http, tenant.key, doc.doc_id);
    assert.equal(ready.ready_revision, 2);
    assert.deepEqual(markersOf(await chunkContents(doc.doc_id), ['amber', 'cobalt']), new Set(['cobalt']));
  });

  it('a failed revision leaves the previous one searchable, the document failed with the reason', async () => {
    const tenant = await createTenant(http);
    const doc = await ingestDocument(http, tenant, { title: 'Stable', content: text('amber') });
    fake.enqueueEmbeddings({ status: 400, errorMessage: 'this input is refused by the provider' });
    const replaced = await put(tenant, doc.doc_id, { content: text('cobalt') });
    assert.equal(replaced.status, 202, replaced.text);
    const failed = await waitForDocument(http, tenant.key, doc.doc_id);
    assert.equal(failed.status, 'failed', JSON.stringify(failed));
    assert.match(failed.failure_reason, /400.*refused by the provider/);
    assert.equal(failed.revision, 2);
    assert.equal(failed.ready_revision, 1);
    assert.equal(failed.chunk_count, doc.chunk_count, 'chunk_count is of the ready revision');
    const matches = await search(tenant, 'amberlight cobaltlight');
    assert.equal(matches.length, doc.chunk_count);
    assert.deepEqual(
      markersOf(
        matches.map((match) => match.content),
        ['amber', 'cobalt'],
      ),
      new Set(['amber']),
    );
    assert.deepEqual(markersOf(await chunkContents(doc.doc_id), ['amber', 'cobalt']), new Set(['amber']));
    assert.equal((await sql(`SELECT 1 FROM knowledge_chunk_drafts WHERE doc_id = $1`, [doc.doc_id])).length, 0);
    const events = await sql<{ type: string; data: any }>(`SELECT type, data FROM events WHERE resource_id = $1 ORDER BY created_at`, [doc.doc_id]);
    assert.deepEqual(
      events.map((event) => [event.type, event.data.revision, event.data.ready_revision]),
      [
        ['knowledge_document.ready', 1, 1],
        ['knowledge_document.failed', 2, 1],
      ],
    );

    // A later revision recovers.
    const again = await put(tenant, doc.doc_id, { content: text('cobalt') });
    assert.equal(again.body.revision, 3);
    const ready = await waitForDocument(http, tenant.key, doc.doc_id);
    assert.equal(ready.status, 'ready');
    assert.equal(ready.ready_revision, 3);
    assert.equal(ready.failure_reason, null);
    assert.deepEqual(markersOf(await chunkContents(doc.doc_id), ['amber', 'cobalt']), new Set(['cobalt']));
  });

  for (const slow of [true, false]) {
    it(`concurrent replacements${slow ? ', all in flight at once' : ''}: each is its own revision, the last accepted wins, nothing is mixed`, async () => {
      const tenant = await createTenant(http);
      const doc = await ingestDocument(http, tenant, { title: 'Contended', content: text('amber') });
      const markers = ['bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
      const last = markers.length + 1;
      // Slow embeddings keep every revision's workflow busy until all of them were accepted.
      if (slow) fake.enqueueEmbeddings(...Array.from({ length: 40 }, () => ({ delayMs: 1000 })));
      const responses = await Promise.all(markers.map((marker) => put(tenant, doc.doc_id, { content: text(marker) })));
      for (const response of responses) assert.equal(response.status, 202, response.text);
      const revisions = responses.map((response) => response.body.revision as number);
      assert.deepEqual(
        [...revisions].sort((a, b) => a - b),
        markers.map((_, i) => i + 2),
        'each replacement got a revision of its own',
      );
      const winner = markers[revisions.indexOf(last)]!;

      const ready = await waitForDocument(http, tenant.key, doc.doc_id);
      assert.equal(ready.status, 'ready', JSON.stringify(ready));
      assert.equal(ready.revision, last);
      assert.equal(ready.ready_revision, last);
      const outcomes = await Promise.all(
        revisions.map(async (revision) => [
          revision,
          (await temporal.workflow.getHandle(knowledgeIngestWorkflowId(doc.doc_id, revision)).result()).status,
        ]),
      );
      fake.discardQueuedEmbeddings();
      for (const [revision, status] of outcomes) {
        if (revision === last) assert.equal(status, 'ready');
        else assert.ok(slow ? status === 'superseded' : ['superseded', 'ready'].includes(status), `revision ${revision}: ${status}`);
      }
      const all = ['amber', ...markers];
      const chunks = await chunkContents(doc.doc_id);
      assert.equal(chunks.length, ready.chunk_count);
      assert.deepEqual(markersOf(chunks, all), new Set([winner]), 'exactly the last accepted revision is present');
      assert.deepEqual(
        markersOf(
          (await search(tenant, `${winner}light amberlight`)).map((match) => match.content),
          all,
        ),
        new Set([winner]),
      );
      assert.equal((await sql(`SELECT 1 FROM knowledge_chunk_drafts WHERE doc_id = $1`, [doc.doc_id])).length, 0);
      const later = (await http.get(`/api/v1/knowledge/documents/${doc.doc_id}`, { token: tenant.key })).body;
      assert.deepEqual(later, ready, 'nothing changed after the winner was published');
      const events = await sql<{ type: string; data: any }>(`SELECT type, data FROM events WHERE resource_id = $1 ORDER BY created_at`, [doc.doc_id]);
      const published = events.map((event) => [event.type, event.data.revision]);
      if (slow) {
        assert.deepEqual(
          published,
          [
            ['knowledge_document.ready', 1],
            ['knowledge_document.ready', last],
          ],
          'superseded revisions publish nothing and record no event',
        );
      } else {
        // A revision that finished while it was still the latest was published, legitimately; never one after a later one.
        assert.ok(
          published.every(([type, revision], i) => type === 'knowledge_document.ready' && (i === 0 || revision > published[i - 1]![1])),
          JSON.stringify(published),
        );
        assert.equal(published[published.length - 1]![1], last);
      }
    });
  }

  it('under a search load, every search during a replacement finds the document with exactly one revision, whole', async (t) => {
    const tenant = await createTenant(http);
    const doc = await ingestDocument(http, tenant, { title: 'Loaded', content: text('amber', 18) });
    assert.ok(doc.chunk_count <= 20, `chunk_count ${doc.chunk_count} fits one search`);
    const query = 'amberlight cobaltlight keeper';
    await search(tenant, query); // the query's embedding is cached from here on: the fake's queue serves ingestion only

    // Three searches overlap at any time, so they finish out of order: each keeps when it was sent and answered.
    type Observation = { revisions: string; count: number; sentAt: number; answeredAt: number };
    const observations: Observation[] = [];
    let stop = false;
    const loop = async () => {
      while (!stop) {
        const sentAt = performance.now();
        const matches = await search(tenant, query);
        const answeredAt = performance.now();
        const own = matches.filter((match) => match.doc_id === doc.doc_id);
        observations.push({
          revisions: [
            ...markersOf(
              own.map((match) => match.content),
              ['amber', 'cobalt'],
            ),
          ].join(','),
          count: own.length,
          sentAt,
          answeredAt,
        });
      }
    };
    const loops = Array.from({ length: 3 }, loop);
    await until('the search load under way', () => observations.length >= 3, { intervalMs: 20 });
    fake.enqueueEmbeddings(...Array.from({ length: 8 }, () => ({ delayMs: 150 })));
    const replaced = await put(tenant, doc.doc_id, { content: text('cobalt', 19) });
    assert.equal(replaced.status, 202, replaced.text);
    const ready = await waitForDocument(http, tenant.key, doc.doc_id);
    const readyAt = performance.now();
    await until('searches sent after the swap answered', () => observations.filter((o) => o.sentAt > readyAt).length >= 3, { intervalMs: 20 });
    stop = true;
    await Promise.all(loops);
    fake.discardQueuedEmbeddings();
    assert.equal(ready.ready_revision, 2);
    assert.ok(ready.chunk_count <= 20);

    const expected: Record<string, number> = { amber: doc.chunk_count, cobalt: ready.chunk_count };
    const bad = observations.filter((observation) => !(observation.revisions in expected) || observation.count !== expected[observation.revisions]);
    const seen = new Set(observations.map((observation) => observation.revisions));
    const n = observations.length;
    t.diagnostic(`${n} searches during the replacement, ${bad.length} bad`);
    console.log(`search under load: N = ${n} searches, ${bad.length} bad (${JSON.stringify([...seen])})`);
    assert.deepEqual(bad, [], 'never missing, never both revisions, never a partial revision');
    assert.ok(n >= 20, `only ${n} searches`);
    assert.ok(seen.has('amber') && seen.has('cobalt'), `both revisions were served in turn: ${JSON.stringify([...seen])}`);
    // Once cobalt was served, amber never again: no search sent after a cobalt answer arrived found amber.
    const firstCobaltAnswer = Math.min(...observations.filter((o) => o.revisions === 'cobalt').map((o) => o.answeredAt));
    const amberAfterCobalt = observations.filter((o) => o.revisions === 'amber' && o.sentAt > firstCobaltAnswer);
    assert.deepEqual(amberAfterCobalt, [], 'amber served after cobalt had been');
  });

  it('Idempotency-Key: the same key and body answer without another revision; another body is 409', async () => {
    const tenant = await createTenant(http);
    const doc = await ingestDocument(http, tenant, { title: 'Once', content: text('amber') });
    const headers = { 'idempotency-key': `rev-${randomUUID()}` };
    const first = await put(tenant, doc.doc_id, { content: text('cobalt') }, headers);
    const again = await put(tenant, doc.doc_id, { content: text('cobalt') }, headers);
    assert.equal(first.status, 202, first.text);
    assert.equal(again.status, 202, again.text);
    assert.equal(first.body.revision, 2);
    assert.equal(again.body.revision, 2);
    expectError(await put(tenant, doc.doc_id, { content: text('delta') }, headers), 409, 'idempotency_key_reused');
    expectError(await put(tenant, doc.doc_id, { content: text('cobalt'), title: 'Other' }, headers), 409, 'idempotency_key_reused');
    const ready = await waitForDocument(http, tenant.key, doc.doc_id);
    assert.equal(ready.revision, 2);
    // Concurrent retries with one key make one revision.
    const racing = { 'idempotency-key': `rev-${randomUUID()}` };
    const raced = await Promise.all(Array.from({ length: 4 }, () => put(tenant, doc.doc_id, { content: text('echo') }, racing)));
    for (const response of raced) assert.equal(response.status, 202, response.text);
    const final = await waitForDocument(http, tenant.key, doc.doc_id);
    assert.equal(final.revision, 3);
    assert.equal(final.ready_revision, 3);
  });

  it('with the workflow engine unavailable, a replacement is refused and changes nothing; a retry with its key then replaces', async () => {
    // An API of its own whose Temporal is unreachable, on the same database.
    const cut = await Stack.start({ env: { TEMPORAL_ADDRESS: '127.0.0.1:1' }, worker: false, apiReadyPath: '/healthz' });
    try {
      const tenant = await createTenant(http);
      const doc = await ingestDocument(http, tenant, { title: 'Steady', content: text('amber') });
      const headers = { 'idempotency-key': `rev-${randomUUID()}` };
      const body = { org_id: tenant.orgId, content: text('cobalt'), title: 'Changed' };
      const refused = await new Http(cut.url).put(`/api/v1/knowledge/documents/${doc.doc_id}`, { token: tenant.key, body, headers });
      expectError(refused, 500, 'orchestrator_unavailable');
      const unchanged = (await http.get(`/api/v1/knowledge/documents/${doc.doc_id}`, { token: tenant.key })).body;
      assert.deepEqual(unchanged, doc, 'the document is exactly as it was');
      const [row] = await sql<{ content: string }>(`SELECT content FROM knowledge_documents WHERE id = $1`, [doc.doc_id]);
      assert.equal(row!.content, text('amber'));
      assert.equal((await sql(`SELECT 1 FROM knowledge_document_replacements WHERE doc_id = $1`, [doc.doc_id])).length, 0);

      const retried = await http.put(`/api/v1/knowledge/documents/${doc.doc_id}`, { token: tenant.key, body, headers });
      assert.equal(retried.status, 202, retried.text);
      assert.equal(retried.body.revision, 2);
      const ready = await waitForDocument(http, tenant.key, doc.doc_id);
      assert.equal(ready.ready_revision, 2);
      assert.equal(ready.title, 'Changed');
    } finally {
      await cut.stop();
    }
  });

  it('errors: 404 for another organisation’s or an unknown document, 403, 400, 413', async () => {
    const tenant = await createTenant(http);
    const other = await createTenant(http);
    const doc = await ingestDocument(http, tenant, { title: 'Mine', content: text('amber') });
    expectError(await put(other, doc.doc_id, { content: 'x' }), 404, 'not_found');
    expectError(await put(tenant, randomUUID(), { content: 'x' }), 404, 'not_found');
    expectError(
      await http.put(`/api/v1/knowledge/documents/${doc.doc_id}`, { token: tenant.key, body: { org_id: other.orgId, content: 'x' } }),
      403,
      'insufficient_scope',
    );
    const reader = await createKey(http, tenant.orgId, ['kb:read']);
    expectError(
      await http.put(`/api/v1/knowledge/documents/${doc.doc_id}`, { token: reader, body: { org_id: tenant.orgId, content: 'x' } }),
      403,
      'insufficient_scope',
    );
    expectError(
      await http.put(`/api/v1/knowledge/documents/${doc.doc_id}`, { body: { org_id: tenant.orgId, content: 'x' } }),
      401,
      'missing_api_key',
    );
    for (const invalid of [
      {},
      { content: '' },
      { content: 7 },
      { content: 'x', title: '' },
      { content: 'x', title: null },
      { content: 'x', metadata: [1] },
      { content: 'x', extra: 1 },
    ]) {
      expectError(await put(tenant, doc.doc_id, invalid), 400, 'invalid_request');
    }
    expectError(await put(tenant, 'not-a-uuid', { content: 'x' }), 400, 'invalid_request');
    expectError(await put(tenant, doc.doc_id, { content: 'x'.repeat(600_000) }), 413, 'payload_too_large');
    const unchanged = (await http.get(`/api/v1/knowledge/documents/${doc.doc_id}`, { token: tenant.key })).body;
    assert.equal(unchanged.revision, 1, 'no refused replacement made a revision');
    assert.equal(unchanged.status, 'ready');
  });
});
