import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from '../support/db';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createTenant, createVersion, ingestDocument, waitForRun } from '../support/tenant';
import { pause } from '../support/wait';

/** The OpenAI embedder against a local OpenAI-compatible server: batches, failures, and a missing credential. */
describe('knowledge with the openai embedder', () => {
  let fake: FakeOpenAi;
  let stack: Stack;
  let unconfigured: Stack;
  let http: Http;

  before(async () => {
    fake = await FakeOpenAi.start();
    [stack, unconfigured] = await Promise.all([
      Stack.start({
        env: {
          EMBEDDING_PROVIDER: 'openai',
          OPENAI_API_KEY: 'sk-test-fake',
          OPENAI_BASE_URL: fake.baseUrl,
          EMBEDDING_BATCH_SIZE: '4',
          KB_CHUNK_SIZE: '100',
          KB_CHUNK_OVERLAP: '20',
        },
      }),
      Stack.start({ env: { EMBEDDING_PROVIDER: 'openai', OPENAI_API_KEY: '' } }),
    ]);
    http = new Http(stack.url);
  });
  after(async () => {
    await Promise.all([stack?.stop(), unconfigured?.stop()]);
    await fake?.stop();
  });

  const longText = Array.from({ length: 30 }, (_, i) => `Sentence number ${i} is about embeddings in batches.`).join(' ');

  it('embeds in batches with the configured model and dimensions, then searches', async () => {
    const tenant = await createTenant(http);
    const before = fake.embeddingRequests.length;
    const doc = await ingestDocument(http, tenant, { title: 'Batches', content: longText });
    assert.equal(doc.status, 'ready');
    const requests = fake.embeddingRequests.slice(before);
    assert.equal(requests.length, Math.ceil(doc.chunk_count / 4));
    for (const request of requests) {
      assert.equal(request.body.model, 'text-embedding-3-small');
      assert.equal(request.body.dimensions, 384);
      assert.ok(request.body.input.length <= 4);
    }
    const search = await http.post('/api/v1/knowledge/search', { token: tenant.key, body: { org_id: tenant.orgId, query: 'batches' } });
    assert.equal(search.status, 200);
    assert.ok(search.body.matches.length > 0);
  });

  it('a document larger than one round of batches shows its embedding progress while processing, and none once ready', async () => {
    const tenant = await createTenant(http);
    // 4 chunks per batch, 4 batches at once: 60 sentences make more than 16 chunks, so the batched path runs.
    const content = Array.from({ length: 60 }, (_, i) => `Sentence number ${i} is about progress in batches.`).join(' ');
    fake.enqueueEmbeddings(...Array.from({ length: 12 }, () => ({ delayMs: 400 })));
    const created = await http.post('/api/v1/knowledge/documents', { token: tenant.key, body: { org_id: tenant.orgId, title: 'Progress', content } });
    assert.equal(created.status, 202, created.text);
    assert.equal(created.body.progress, null, 'not chunked yet');
    const docId = created.body.doc_id as string;

    const seen: Array<{ chunks_embedded: number; chunks_total: number }> = [];
    let listed: any;
    let document: any;
    // Sampled every 50 ms while it is processing: each progress seen is kept.
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await pause(50)) {
      document = (await http.get(`/api/v1/knowledge/documents/${docId}`, { token: tenant.key })).body;
      if (document.status !== 'processing') break;
      if (document.progress) {
        seen.push(document.progress);
        listed ??= (await http.get('/api/v1/knowledge/documents?status=processing', { token: tenant.key })).body.data.find(
          (entry: any) => entry.doc_id === docId,
        );
      }
    }
    fake.discardQueuedEmbeddings();
    assert.equal(document.status, 'ready', JSON.stringify(document));
    assert.equal(document.progress, null, 'a ready document has no progress');
    assert.ok(seen.length > 0, 'progress was shown while processing');
    assert.ok(
      seen.every((progress) => progress.chunks_total === document.chunk_count),
      'the total is the chunks the document ends with',
    );
    assert.ok(
      seen.some((progress) => progress.chunks_embedded > 0 && progress.chunks_embedded < progress.chunks_total),
      JSON.stringify(seen),
    );
    assert.ok(
      seen.every((progress, i) => i === 0 || progress.chunks_embedded >= seen[i - 1]!.chunks_embedded),
      'never goes back',
    );
    assert.ok(listed?.progress, 'the list shows it too');

    const other = await createTenant(http);
    assert.equal((await http.get(`/api/v1/knowledge/documents/${docId}`, { token: other.key })).status, 404);
  });

  it('a 429 and a 500 are retried; the document still becomes ready', async () => {
    const tenant = await createTenant(http);
    fake.enqueueEmbeddings({ status: 429 }, { status: 500 });
    const doc = await ingestDocument(http, tenant, { title: 'Flaky', content: 'A short document about retries.' });
    assert.equal(doc.status, 'ready');
  });

  it('a failing embedder fails the document with the reason, and nothing of it is searchable', async () => {
    const tenant = await createTenant(http);
    fake.enqueueEmbeddings({}, { status: 400, errorMessage: 'input too long for this model' });
    const doc = await ingestDocument(http, tenant, { title: 'Doomed', content: longText });
    assert.equal(doc.status, 'failed');
    assert.match(doc.failure_reason, /400.*input too long/);
    assert.equal(doc.chunk_count, 0);
    assert.equal((await sql(`SELECT 1 FROM knowledge_chunks WHERE doc_id = $1`, [doc.doc_id])).length, 0);
    assert.equal((await sql(`SELECT 1 FROM knowledge_chunk_drafts WHERE doc_id = $1`, [doc.doc_id])).length, 0);
    const search = await http.post('/api/v1/knowledge/search', { token: tenant.key, body: { org_id: tenant.orgId, query: 'embeddings batches' } });
    assert.deepEqual(search.body, { matches: [] });
    const events = await sql<{ type: string }>(`SELECT type FROM events WHERE resource_id = $1`, [doc.doc_id]);
    assert.deepEqual(
      events.map((event) => event.type),
      ['knowledge_document.failed'],
    );
  });

  it('without a credential, search answers 500 embedding_unavailable and the rest of the API works', async () => {
    const other = new Http(unconfigured.url);
    const tenant = await createTenant(other);
    const response = await other.post('/api/v1/knowledge/search', { token: tenant.key, body: { org_id: tenant.orgId, query: 'x' } });
    assert.equal(response.status, 500);
    assert.deepEqual(response.body, { error: 'embedding_unavailable' });
    assert.match(response.headers.get('error-detail') ?? '', /OPENAI_API_KEY/);
    assert.equal((await other.get('/api/v1/agent-runs', { token: tenant.key })).status, 200);
    const doc = await ingestDocument(other, tenant, { title: 'No embedder', content: 'Cannot be embedded.' });
    assert.equal(doc.status, 'failed');
    assert.match(doc.failure_reason, /OPENAI_API_KEY/);
  });

  it('openai/<model> with knowledge_search: the model gets the tool, its call runs as a search, and the result goes back', async () => {
    const tenant = await createTenant(http);
    const doc = await ingestDocument(http, tenant, { title: 'Penguins', content: 'Emperor penguins breed during the Antarctic winter.' });
    const versionId = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'openai/gpt-4o-mini',
      tools: [{ type: 'knowledge_search', match_count: 2 }],
    });
    const before = fake.requests.length;
    fake.enqueue(
      { toolCalls: [{ id: 'call_1', name: 'knowledge_search', arguments: '{"query":"when do emperor penguins breed"}' }] },
      { content: `They breed in winter [doc ${doc.doc_id}].` },
    );
    const created = await http.post('/api/v1/agent-runs', {
      token: tenant.key,
      body: { org_id: tenant.orgId, agent_version_id: versionId, input: 'When do emperor penguins breed?' },
    });
    const { run } = await waitForRun(http, tenant.key, created.body.run_id);
    assert.equal(run.status, 'succeeded', run.error);
    assert.equal(run.output, `They breed in winter [doc ${doc.doc_id}].`);
    const [first, second] = fake.requests.slice(before).map((request) => request.body);
    assert.equal(first.tools[0].name, 'knowledge_search');
    assert.deepEqual(first.tools[0].parameters.required, ['query']);
    const toolOutput = second.input.find((item: any) => item.type === 'function_call_output');
    assert.equal(toolOutput.call_id, 'call_1');
    const result = JSON.parse(toolOutput.output);
    assert.equal(result.matches.length, 1);
    assert.equal(result.matches[0].doc_id, doc.doc_id);
    assert.match(result.matches[0].content, /Emperor penguins/);
    assert.equal(second.input.find((item: any) => item.type === 'function_call').call_id, 'call_1');
  });

  it('start-up refuses an embedding dimension that does not match the column', () => {
    for (const script of ['apps/api/main.js', 'apps/worker/main.js']) {
      const result = spawnSync(process.execPath, [join(__dirname, '..', '..', script)], {
        env: { ...process.env, ...stack.env, EMBEDDING_DIMENSIONS: '128', PORT: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      assert.notEqual(result.status, 0, `${script} started`);
      assert.match(`${result.stdout}${result.stderr}`, /128-dimensional vectors but knowledge_chunks\.embedding holds 384/);
    }
  });
});
