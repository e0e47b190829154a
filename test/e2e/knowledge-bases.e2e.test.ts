import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { sql } from '../support/db';
import { Http, type HttpResponse } from '../support/http';
import { Stack } from '../support/stack';
import { createKey, createTenant, createVersion, ingestDocument, waitForDocument, waitForRun, type Tenant } from '../support/tenant';
import { until } from '../support/wait';

function expectError(response: HttpResponse, status: number, code: string, detail?: RegExp): void {
  assert.equal(response.status, status, `${response.text} ${response.headers.get('error-detail')}`);
  assert.deepEqual(response.body, { error: code });
  if (detail) assert.match(response.headers.get('error-detail') ?? '', detail);
}

const BASE_FIELDS = ['created_at', 'description', 'document_count', 'is_default', 'knowledge_base_id', 'name', 'org_id', 'updated_at'];

/** Several knowledge bases per organisation: CRUD, the default base, scoped queries and a scoped agent tool. */
describe('knowledge bases', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let other: Tenant;

  const createBase = (owner: Tenant, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
    http.post('/api/v1/knowledge-bases', { token: owner.key, body: { org_id: owner.orgId, ...body }, headers });
  const getBase = (owner: Tenant, id: string) => http.get(`/api/v1/knowledge-bases/${id}`, { token: owner.key });
  const query = (owner: Tenant, body: Record<string, unknown>) =>
    http.post('/api/v1/knowledge/query', { token: owner.key, body: { org_id: owner.orgId, ...body } });
  const addDocument = (owner: Tenant, fields: Record<string, unknown>) =>
    http.post('/api/v1/knowledge/documents', { token: owner.key, body: { org_id: owner.orgId, ...fields } });

  before(async () => {
    // Above 3 chunks an organisation gets its own HNSW index: the scoped queries below take that path too.
    stack = await Stack.start({ env: { KB_CHUNK_SIZE: '1000', KB_CHUNK_OVERLAP: '0', KB_EXACT_SEARCH_MAX_CHUNKS: '3' } });
    http = new Http(stack.url);
    [tenant, other] = await Promise.all([createTenant(http), createTenant(http)]);
  });
  after(async () => stack?.stop());

  it('an existing client without knowledge_base_id: its document goes to a Default base made for it, and the seed search answers as before', async () => {
    const fresh = await createTenant(http);
    assert.deepEqual((await http.get('/api/v1/knowledge-bases', { token: fresh.key })).body, { data: [], next_cursor: null });
    const document = await ingestDocument(http, fresh, { title: 'Tides', content: 'The tide turns twice a day at the harbour.' });
    assert.equal(document.status, 'ready');
    const list = await http.get('/api/v1/knowledge-bases', { token: fresh.key });
    assert.equal(list.status, 200, list.text);
    assert.equal(list.body.data.length, 1);
    const [base] = list.body.data;
    assert.deepEqual(Object.keys(base).sort(), BASE_FIELDS);
    assert.equal(base.name, 'Default');
    assert.equal(base.is_default, true);
    assert.equal(base.document_count, 1);
    assert.equal(base.description, null);
    assert.equal(document.knowledge_base_id, base.knowledge_base_id);
    // Two more documents at once still make one default base.
    await Promise.all([1, 2].map((n) => addDocument(fresh, { title: `more ${n}`, content: 'More about tides.' })));
    const after = await http.get('/api/v1/knowledge-bases', { token: fresh.key });
    assert.equal(after.body.data.length, 1);
    assert.equal(after.body.data[0].document_count, 3);

    const search = await http.post('/api/v1/knowledge/search', { token: fresh.key, body: { org_id: fresh.orgId, query: 'when does the tide turn' } });
    assert.equal(search.status, 200, search.text);
    assert.deepEqual(Object.keys(search.body), ['matches']);
    assert.deepEqual(Object.keys(search.body.matches[0]).sort(), [
      'chunk_id',
      'chunk_index',
      'content',
      'doc_id',
      'metadata',
      'page_end',
      'page_start',
      'score',
      'title',
    ]);
  });

  it('create, get, list, update, delete; names unique per organisation; Idempotency-Key honoured', async () => {
    const created = await createBase(tenant, { name: 'Handbook', description: 'For the support team.' });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), BASE_FIELDS);
    assert.equal(created.body.name, 'Handbook');
    assert.equal(created.body.description, 'For the support team.');
    assert.equal(created.body.org_id, tenant.orgId);
    assert.equal(created.body.document_count, 0);
    assert.equal(created.body.is_default, true, "the organisation's first base is its default");
    const id = created.body.knowledge_base_id as string;
    assert.deepEqual((await getBase(tenant, id)).body, created.body);
    assert.deepEqual((await getBase(tenant, id.toUpperCase())).body, created.body);

    expectError(await createBase(tenant, { name: 'Handbook' }), 409, 'knowledge_base_name_taken');
    // Another organisation may use the same name.
    assert.equal((await createBase(other, { name: 'Handbook' })).status, 201);

    const second = await createBase(tenant, { name: 'Policies' });
    assert.equal(second.status, 201, second.text);
    assert.equal(second.body.is_default, false);
    assert.equal(second.body.description, null);

    const list = await http.get('/api/v1/knowledge-bases?limit=1', { token: tenant.key });
    assert.equal(list.status, 200, list.text);
    assert.deepEqual(
      list.body.data.map((base: { name: string }) => base.name),
      ['Policies'],
    );
    const next = await http.get(`/api/v1/knowledge-bases?limit=1&cursor=${list.body.next_cursor}`, { token: tenant.key });
    assert.deepEqual(
      next.body.data.map((base: { name: string }) => base.name),
      ['Handbook'],
    );

    const renamed = await http.patch(`/api/v1/knowledge-bases/${second.body.knowledge_base_id}`, {
      token: tenant.key,
      body: { name: 'Rules', description: 'Company rules.' },
    });
    assert.equal(renamed.status, 200, renamed.text);
    assert.equal(renamed.body.name, 'Rules');
    assert.equal(renamed.body.description, 'Company rules.');
    assert.ok(renamed.body.updated_at > second.body.updated_at);
    const cleared = await http.patch(`/api/v1/knowledge-bases/${second.body.knowledge_base_id}`, { token: tenant.key, body: { description: null } });
    assert.equal(cleared.body.description, null);
    assert.equal(cleared.body.name, 'Rules');
    expectError(
      await http.patch(`/api/v1/knowledge-bases/${second.body.knowledge_base_id}`, { token: tenant.key, body: { name: 'Handbook' } }),
      409,
      'knowledge_base_name_taken',
    );

    const key = randomUUID();
    const [first, racing] = await Promise.all([
      createBase(tenant, { name: 'Once' }, { 'idempotency-key': key }),
      createBase(tenant, { name: 'Once' }, { 'idempotency-key': key }),
    ]);
    assert.equal(first.status, 201, first.text);
    assert.equal(racing.status, 201, racing.text);
    assert.equal(racing.body.knowledge_base_id, first.body.knowledge_base_id);
    expectError(await createBase(tenant, { name: 'Twice' }, { 'idempotency-key': key }), 409, 'idempotency_key_reused');

    const deleted = await http.delete(`/api/v1/knowledge-bases/${first.body.knowledge_base_id}`, { token: tenant.key });
    assert.equal(deleted.status, 204, deleted.text);
    expectError(await getBase(tenant, first.body.knowledge_base_id), 404, 'not_found');
    expectError(await http.delete(`/api/v1/knowledge-bases/${first.body.knowledge_base_id}`, { token: tenant.key }), 404, 'not_found');
  });

  it('validation: 400 naming the field, no extra properties; scopes kb:read and kb:write', async () => {
    expectError(await createBase(tenant, { name: '' }), 400, 'invalid_request', /name/);
    expectError(await createBase(tenant, {}), 400, 'invalid_request', /name/);
    expectError(await createBase(tenant, { name: 'x'.repeat(201) }), 400, 'invalid_request', /name/);
    expectError(await createBase(tenant, { name: 'Extra', colour: 'blue' }), 400, 'invalid_request', /colour/);
    expectError(await createBase(tenant, { name: 7 }), 400, 'invalid_request', /name/);
    const base = (await createBase(tenant, { name: 'Validated' })).body.knowledge_base_id as string;
    expectError(await http.patch(`/api/v1/knowledge-bases/${base}`, { token: tenant.key, body: { name: null } }), 400, 'invalid_request', /name/);
    expectError(await http.patch(`/api/v1/knowledge-bases/${base}`, { token: tenant.key, body: { extra: 1 } }), 400, 'invalid_request', /extra/);
    expectError(await http.delete(`/api/v1/knowledge-bases/${base}?cascade=maybe`, { token: tenant.key }), 400, 'invalid_request', /cascade/);
    expectError(await http.get('/api/v1/knowledge-bases/not-a-uuid', { token: tenant.key }), 400, 'invalid_request');
    expectError(
      await http.post('/api/v1/knowledge-bases', { token: tenant.key, body: { org_id: other.orgId, name: 'Theirs' } }),
      403,
      'insufficient_scope',
    );

    const reader = await createKey(http, tenant.orgId, ['kb:read']);
    assert.equal((await http.get('/api/v1/knowledge-bases', { token: reader })).status, 200);
    assert.equal((await http.get(`/api/v1/knowledge-bases/${base}`, { token: reader })).status, 200);
    expectError(await http.post('/api/v1/knowledge-bases', { token: reader, body: { org_id: tenant.orgId, name: 'No' } }), 403, 'insufficient_scope');
    expectError(await http.patch(`/api/v1/knowledge-bases/${base}`, { token: reader, body: { name: 'No' } }), 403, 'insufficient_scope');
    expectError(await http.delete(`/api/v1/knowledge-bases/${base}`, { token: reader }), 403, 'insufficient_scope');
    const writer = await createKey(http, tenant.orgId, ['kb:write']);
    expectError(await http.get('/api/v1/knowledge-bases', { token: writer }), 403, 'insufficient_scope');
  });

  it("another organisation's base is not found, and unknown ids in bodies are 400 naming the field", async () => {
    const theirs = (await createBase(other, { name: 'Private' })).body.knowledge_base_id as string;
    expectError(await getBase(tenant, theirs), 404, 'not_found');
    expectError(await http.patch(`/api/v1/knowledge-bases/${theirs}`, { token: tenant.key, body: { name: 'Mine' } }), 404, 'not_found');
    expectError(await http.delete(`/api/v1/knowledge-bases/${theirs}?cascade=true`, { token: tenant.key }), 404, 'not_found');
    expectError(await getBase(tenant, randomUUID()), 404, 'not_found');
    assert.equal((await getBase(other, theirs)).status, 200, 'still there');

    expectError(await addDocument(tenant, { title: 'x', content: 'y', knowledge_base_id: theirs }), 400, 'invalid_request', /knowledge_base_id/);
    expectError(await addDocument(tenant, { title: 'x', content: 'y', knowledge_base_id: 'nope' }), 400, 'invalid_request', /knowledge_base_id/);
    expectError(await query(tenant, { query: 'x', knowledge_base_ids: [theirs] }), 400, 'invalid_request', /knowledge_base_ids/);
    expectError(await query(tenant, { query: 'x', knowledge_base_ids: [] }), 400, 'invalid_request', /knowledge_base_ids/);
    expectError(await query(tenant, { query: 'x', knowledge_base_ids: ['nope'] }), 400, 'invalid_request', /knowledge_base_ids/);
    expectError(
      await query(tenant, { query: 'x', knowledge_base_ids: Array.from({ length: 21 }, () => randomUUID()) }),
      400,
      'invalid_request',
      /knowledge_base_ids/,
    );
    const version = await http.post(`/api/v1/agents/${tenant.agentId}/versions`, {
      token: tenant.key,
      body: { model: 'local/extractive', instructions: 'x', tools: [{ type: 'knowledge_search', knowledge_base_ids: [theirs] }] },
    });
    expectError(version, 400, 'invalid_request', /tools\.0\.knowledge_base_ids/);
  });

  it('a base with documents: 409 knowledge_base_not_empty, or cascade deletes them and search no longer finds them', async () => {
    const base = (await createBase(tenant, { name: 'Doomed' })).body.knowledge_base_id as string;
    const document = await ingestDocument(http, tenant, {
      title: 'Zeppelin',
      content: 'The zeppelin hangar holds three airships.',
      knowledge_base_id: base,
    });
    assert.equal(document.status, 'ready');
    assert.equal(document.knowledge_base_id, base);
    assert.equal((await getBase(tenant, base)).body.document_count, 1);
    const listed = await http.get(`/api/v1/knowledge/documents?knowledge_base_id=${base}`, { token: tenant.key });
    assert.deepEqual(
      listed.body.data.map((doc: { doc_id: string }) => doc.doc_id),
      [document.doc_id],
    );
    const found = await query(tenant, { query: 'zeppelin hangar', mode: 'keyword' });
    assert.ok(found.body.matches.some((match: { doc_id: string }) => match.doc_id === document.doc_id));

    expectError(await http.delete(`/api/v1/knowledge-bases/${base}`, { token: tenant.key }), 409, 'knowledge_base_not_empty');
    expectError(await http.delete(`/api/v1/knowledge-bases/${base}?cascade=false`, { token: tenant.key }), 409, 'knowledge_base_not_empty');
    assert.equal((await getBase(tenant, base)).status, 200);
    const deleted = await http.delete(`/api/v1/knowledge-bases/${base}?cascade=true`, { token: tenant.key });
    assert.equal(deleted.status, 204, deleted.text);
    expectError(await getBase(tenant, base), 404, 'not_found');
    expectError(await http.get(`/api/v1/knowledge/documents/${document.doc_id}`, { token: tenant.key }), 404, 'not_found');
    assert.equal((await sql(`SELECT 1 FROM knowledge_chunks WHERE doc_id = $1`, [document.doc_id])).length, 0);
    const gone = await query(tenant, { query: 'zeppelin hangar', mode: 'keyword' });
    assert.ok(!gone.body.matches.some((match: { doc_id: string }) => match.doc_id === document.doc_id));
  });

  describe('scoped search', () => {
    let scoped: Tenant;
    let harbour: string;
    let mountain: string;
    const docsIn = new Map<string, string[]>();

    before(async () => {
      scoped = await createTenant(http);
      harbour = (await createBase(scoped, { name: 'Harbour' })).body.knowledge_base_id;
      mountain = (await createBase(scoped, { name: 'Mountain' })).body.knowledge_base_id;
      const documents: Array<[string, string, string]> = [
        [harbour, 'Harbour lighthouse', 'The lighthouse keeper watches ships enter the harbour at night.'],
        [harbour, 'Harbour lamp', 'The lighthouse lamp in the harbour rotates twice a minute.'],
        [mountain, 'Mountain hut', 'A lighthouse of the mountains: the hut lamp guides climbers at night.'],
        [mountain, 'Mountain pass', 'Climbers cross the pass; a lighthouse-like beacon burns at the top.'],
      ];
      for (const [base, title, content] of documents) {
        const document = await ingestDocument(http, scoped, { title, content, knowledge_base_id: base });
        assert.equal(document.status, 'ready');
        docsIn.set(base, [...(docsIn.get(base) ?? []), document.doc_id]);
      }
      await until(
        "the organisation's own index ready",
        async () =>
          (await sql<{ status: string }>('SELECT status FROM knowledge_vector_indexes WHERE org_id = $1', [scoped.orgId]))[0]?.status === 'ready',
        { timeoutMs: 60_000 },
      );
      // Nothing searched this organisation's knowledge before: no API process has seen its index not ready (and
      // kept that for a second), so the first search below reads it ready and takes the HNSW path.
    });

    it('each scope finds only its own documents, in every mode (the vector leg on the HNSW path too); matches carry knowledge_base_id', async () => {
      for (const mode of ['vector', 'keyword', 'hybrid']) {
        const all = await query(scoped, { query: 'lighthouse at night', mode, match_count: 50 });
        assert.equal(all.status, 200, all.text);
        assert.equal(new Set(all.body.matches.map((match: { doc_id: string }) => match.doc_id)).size, 4, `${mode}: unscoped finds all four`);
        for (const base of [harbour, mountain]) {
          const response = await query(scoped, { query: 'lighthouse at night', mode, match_count: 50, knowledge_base_ids: [base] });
          assert.equal(response.status, 200, response.text);
          const found = response.body.matches as Array<{ doc_id: string; knowledge_base_id: string }>;
          assert.deepEqual([...new Set(found.map((match) => match.doc_id))].sort(), [...docsIn.get(base)!].sort(), `${mode} in ${base}`);
          for (const match of found) assert.equal(match.knowledge_base_id, base);
        }
        const both = await query(scoped, {
          query: 'lighthouse at night',
          mode,
          match_count: 50,
          knowledge_base_ids: [harbour, mountain.toUpperCase()],
        });
        assert.equal(new Set(both.body.matches.map((match: { doc_id: string }) => match.doc_id)).size, 4, `${mode}: both bases`);
      }
      const empty = (await createBase(scoped, { name: 'Empty' })).body.knowledge_base_id;
      assert.deepEqual((await query(scoped, { query: 'lighthouse', knowledge_base_ids: [empty] })).body, { matches: [] });
      // A filter combines with the scope.
      const filtered = await query(scoped, {
        query: 'lighthouse',
        knowledge_base_ids: [harbour],
        filters: { type: 'eq', key: 'title', value: 'Mountain hut' },
      });
      assert.deepEqual(filtered.body, { matches: [] });
    });

    it("an agent version's knowledge_search scoped to a base: the run's tool call finds only that base", async () => {
      const versionId = await createVersion(http, scoped.key, scoped.agentId, {
        model: 'local/extractive',
        tools: [{ type: 'knowledge_search', match_count: 10, knowledge_base_ids: [mountain] }],
      });
      const version = await http.get(`/api/v1/agent-versions/${versionId}`, { token: scoped.key });
      assert.deepEqual(version.body.tools, [
        { type: 'knowledge_search', match_count: 10, require_approval: 'never', knowledge_base_ids: [mountain] },
      ]);
      const unscopedId = await createVersion(http, scoped.key, scoped.agentId, {
        model: 'local/extractive',
        tools: [{ type: 'knowledge_search', match_count: 10 }],
      });
      const toolDocs = async (agentVersionId: string) => {
        const created = await http.post('/api/v1/agent-runs', {
          token: scoped.key,
          body: { org_id: scoped.orgId, agent_version_id: agentVersionId, input: 'Where is the lighthouse lamp at night?' },
        });
        assert.equal(created.status, 200, created.text);
        const { run } = await waitForRun(http, scoped.key, created.body.run_id);
        assert.equal(run.status, 'succeeded', run.error);
        const events = await http.get(`/api/v1/agent-runs/${run.run_id}/events`, { token: scoped.key });
        const result = events.body.data.find((event: { type: string }) => event.type === 'tool_result');
        assert.ok(result, JSON.stringify(events.body.data.map((event: { type: string }) => event.type)));
        return [...(result.data.doc_ids as string[])].sort();
      };
      assert.deepEqual(await toolDocs(versionId), [...docsIn.get(mountain)!].sort());
      assert.deepEqual((await toolDocs(unscopedId)).length, 4);
    });

    it('documents list by knowledge_base_id', async () => {
      const listed = await http.get(`/api/v1/knowledge/documents?knowledge_base_id=${harbour}`, { token: scoped.key });
      assert.equal(listed.status, 200, listed.text);
      assert.deepEqual(listed.body.data.map((doc: { doc_id: string }) => doc.doc_id).sort(), [...docsIn.get(harbour)!].sort());
      for (const doc of listed.body.data) assert.equal(doc.knowledge_base_id, harbour);
      const none = await http.get(`/api/v1/knowledge/documents?knowledge_base_id=${randomUUID()}`, { token: scoped.key });
      assert.deepEqual(none.body, { data: [], next_cursor: null });
      const doc = await waitForDocument(http, scoped.key, docsIn.get(mountain)![0]!);
      assert.equal(doc.knowledge_base_id, mountain);
    });
  });
});
