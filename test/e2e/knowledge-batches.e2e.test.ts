import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from '../support/db';
import { pdfWithLines, tinyPng, uploadForm, wordDocument } from '../support/document-files';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createTenant, waitForDocument, type Tenant } from '../support/tenant';
import { until } from '../support/wait';

describe('knowledge batches', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;

  const createBatch = (options: { body?: unknown; form?: FormData; key?: string; headers?: Record<string, string> }) =>
    http.post('/api/v1/knowledge/batches', { token: options.key ?? tenant.key, body: options.body, form: options.form, headers: options.headers });
  const getBatch = (batchId: string, key = tenant.key) => http.get(`/api/v1/knowledge/batches/${batchId}`, { token: key });
  const expectError = (response: { status: number; body: unknown; text: string }, status: number, code: string) => {
    assert.equal(response.status, status, response.text);
    assert.deepEqual(response.body, { error: code });
  };
  const waitForBatch = (batchId: string, timeoutMs = 120_000): Promise<any> =>
    until(
      `batch ${batchId} to end`,
      async () => {
        const batch = await getBatch(batchId);
        assert.equal(batch.status, 200, batch.text);
        return batch.body.status !== 'processing' && batch.body.counts.processing === 0 && batch.body;
      },
      { timeoutMs, intervalMs: 200 },
    );

  before(async () => {
    stack = await Stack.start({ env: { KB_CHUNK_SIZE: '400', KB_CHUNK_OVERLAP: '40' } });
    http = new Http(stack.url);
    tenant = await createTenant(http);
  });
  after(async () => stack?.stop());

  it('a JSON batch of texts: 202 with its counts, then every document ready and the batch completed', async () => {
    const documents = ['Alpha', 'Bravo', 'Charlie'].map((word) => ({ title: word, content: `The code word is ${word}.`, metadata: { word } }));
    const headers = { 'idempotency-key': `batch-${Date.now()}` };
    const created = await createBatch({ body: { org_id: tenant.orgId, documents }, headers });
    assert.equal(created.status, 202, created.text);
    assert.equal(created.body.status, 'processing');
    assert.deepEqual(created.body.counts, { total: 3, processing: 3, ready: 0, failed: 0 });
    assert.deepEqual(
      created.body.documents.map((d: any) => d.title),
      ['Alpha', 'Bravo', 'Charlie'],
    );
    const again = await createBatch({ body: { org_id: tenant.orgId, documents }, headers });
    assert.equal(again.body.batch_id, created.body.batch_id, 'the same key and documents answer the same batch');
    expectError(await createBatch({ body: { org_id: tenant.orgId, documents: documents.slice(1) }, headers }), 409, 'idempotency_key_reused');
    const done = await waitForBatch(created.body.batch_id);
    assert.equal(done.status, 'completed');
    assert.deepEqual(done.counts, { total: 3, processing: 0, ready: 3, failed: 0 });
    const search = await http.post('/api/v1/knowledge/query', { token: tenant.key, body: { org_id: tenant.orgId, query: 'Bravo', mode: 'keyword' } });
    assert.equal(search.body.matches[0].title, 'Bravo');
  });

  it('refuses an empty, oversized, foreign or mixed-up batch, and stores nothing of it', async () => {
    const before = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM knowledge_documents WHERE org_id = $1`, [tenant.orgId]);
    expectError(await createBatch({ body: { org_id: tenant.orgId, documents: [] } }), 400, 'invalid_request');
    const many = Array.from({ length: 501 }, (_, i) => ({ title: `t${i}`, content: 'x' }));
    expectError(await createBatch({ body: { org_id: tenant.orgId, documents: many } }), 400, 'invalid_request');
    expectError(await createBatch({ body: { org_id: tenant.orgId, documents: [{ title: 'x' }] } }), 400, 'invalid_request');
    expectError(await createBatch({ body: { org_id: tenant.orgId, documents: [{ title: 'x', content: 'y', colour: 1 }] } }), 400, 'invalid_request');
    const other = await createTenant(http);
    expectError(await createBatch({ body: { org_id: other.orgId, documents: [{ title: 'x', content: 'y' }] } }), 403, 'insufficient_scope');
    const mixed = uploadForm(Buffer.from('A fine text file.'), 'fine.txt');
    mixed.append('file', new Blob([tinyPng()]), 'photo.png');
    const refused = await createBatch({ form: mixed });
    expectError(refused, 415, 'unsupported_media_type');
    assert.match(refused.headers.get('error-detail') ?? '', /files\.1 \(photo\.png\) is image\/png/);
    const after = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM knowledge_documents WHERE org_id = $1`, [tenant.orgId]);
    assert.deepEqual(after, before, 'all or none');
    expectError(await getBatch(crypto.randomUUID()), 404, 'not_found');
    const mine = await createBatch({ body: { org_id: tenant.orgId, documents: [{ title: 'Mine', content: 'Mine alone.' }] } });
    expectError(await getBatch(mine.body.batch_id, other.key), 404, 'not_found');
    expectError(await http.post(`/api/v1/knowledge/batches/${mine.body.batch_id}/cancel`, { token: other.key }), 404, 'not_found');
  });

  it('a cancelled batch starts no more documents: those begun finish, the rest end failed, none stays processing', async () => {
    const documents = Array.from({ length: 60 }, (_, i) => ({ title: `Cancel ${i}`, content: `Paragraph ${i}. `.repeat(50) }));
    const created = await createBatch({ body: { org_id: tenant.orgId, documents } });
    assert.equal(created.status, 202, created.text);
    const cancelled = await http.post(`/api/v1/knowledge/batches/${created.body.batch_id}/cancel`, { token: tenant.key });
    assert.equal(cancelled.status, 200, cancelled.text);
    assert.equal(cancelled.body.status, 'cancelled');
    const done = await waitForBatch(created.body.batch_id);
    assert.equal(done.status, 'cancelled');
    assert.equal(done.counts.total, 60);
    assert.equal(done.counts.ready + done.counts.failed, 60);
    assert.ok(done.counts.failed > 0, 'some documents were never begun');
    for (const document of done.documents.filter((d: any) => d.status === 'failed')) {
      assert.equal(document.failure_reason, 'the batch was cancelled before this document was ingested');
    }
    const again = await http.post(`/api/v1/knowledge/batches/${created.body.batch_id}/cancel`, { token: tenant.key });
    assert.deepEqual(again.body.counts, done.counts, 'cancelling an ended batch changes nothing');
    console.log(`# cancelled batch: ${done.counts.ready} ready (begun before the cancel), ${done.counts.failed} failed`);
  });

  it('200 files drain through a kill -9 of the worker, none lost or doubled; another organisation is served meanwhile', async () => {
    const neighbour = await createTenant(http);
    const upload = (who: Tenant, form: FormData) => http.post('/api/v1/knowledge/files', { token: who.key, form });
    const usualStart = Date.now();
    const usual = await upload(neighbour, uploadForm(Buffer.from('The usual upload, before any batch.'), 'usual.txt'));
    await waitForDocument(http, neighbour.key, usual.body.doc_id);
    const usualMs = Date.now() - usualStart;

    const form = new FormData();
    for (let i = 0; i < 200; i++) {
      const token = `token${String(i).padStart(3, '0')}`;
      const text = `Batch file ${i} carries the word ${token}.`;
      let bytes: Uint8Array;
      if (i % 4 === 0)
        bytes = await pdfWithLines([
          [`File ${i}`, text],
          ['Second page', `More about ${token}.`],
        ]);
      else if (i % 4 === 1) bytes = await wordDocument([{ heading: `File ${i}`, text }], [['Token', token]]);
      else if (i % 4 === 2) bytes = Buffer.from(`# File ${i}\n\n${text}\n`);
      else bytes = Buffer.from(`${text}\n`);
      form.append('file', new Blob([bytes]), `file-${i}.${['pdf', 'docx', 'md', 'txt'][i % 4]}`);
    }
    const created = await createBatch({ form });
    assert.equal(created.status, 202, created.text);
    assert.equal(created.body.counts.total, 200);

    await until('20 files of the batch ready', async () => (await getBatch(created.body.batch_id)).body.counts.ready >= 20, { timeoutMs: 120_000 });
    // The batch waits while no worker runs: the new worker takes seconds to start and poll.
    await stack.worker.kill();
    await stack.startWorker();
    const neighbourStart = Date.now();
    const single = await upload(neighbour, uploadForm(Buffer.from('An upload while a batch drains.'), 'single.txt'));
    assert.equal((await waitForDocument(http, neighbour.key, single.body.doc_id, 60_000)).status, 'ready');
    const neighbourMs = Date.now() - neighbourStart;

    const done = await waitForBatch(created.body.batch_id, 300_000);
    assert.equal(done.status, 'completed');
    assert.deepEqual(
      done.counts,
      { total: 200, processing: 0, ready: 200, failed: 0 },
      JSON.stringify(done.documents.filter((d: any) => d.status !== 'ready')),
    );
    const [rows] = await sql<{ docs: number; titles: number; doubled: number }>(
      `SELECT count(*)::int AS docs, count(DISTINCT title)::int AS titles,
              (SELECT count(*)::int FROM (SELECT doc_id, chunk_index FROM knowledge_chunks c JOIN knowledge_documents d ON d.id = c.doc_id
                 WHERE d.batch_id = $1 GROUP BY doc_id, chunk_index HAVING count(*) > 1) AS twice) AS doubled
         FROM knowledge_documents WHERE batch_id = $1`,
      [created.body.batch_id],
    );
    assert.deepEqual(rows, { docs: 200, titles: 200, doubled: 0 }, 'one document per file, each chunk once');
    for (const i of [0, 1, 2, 3, 101, 199]) {
      const token = `token${String(i).padStart(3, '0')}`;
      const found = await http.post('/api/v1/knowledge/query', { token: tenant.key, body: { org_id: tenant.orgId, query: token, mode: 'keyword' } });
      assert.equal(found.body.matches[0]?.title, `file-${i}.${['pdf', 'docx', 'md', 'txt'][i % 4]}`, token);
    }
    console.log(`# 200-file batch through a worker kill -9: neighbour's single upload ready in ${neighbourMs} ms (usual ${usualMs} ms)`);
    assert.ok(neighbourMs < usualMs + 30_000, `the neighbour waited ${neighbourMs} ms`);
  });
});
