import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { sql } from '../support/db';
import { imageOnlyPdf, pdfWithLines, tinyPng, uploadForm, wordDocument } from '../support/document-files';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createKey, createTenant, createVersion, waitForDocument, waitForRun, type Tenant } from '../support/tenant';
import { WORD_CONTENT_TYPES, spacesBombEntry, zipBytes } from '../support/zip-writer';

const fixture = (name: string) => readFileSync(join(__dirname, '..', 'fixtures', 'knowledge', name));

/** Three pages, each longer than a chunk, so that each passage below is on one page. */
const PAGES = [
  ['Pylon handbook', 'Runs move from queued to running to succeeded.', ...filler('runs')],
  ['Billing', 'Every video generation costs five hundred thousand service tokens.', ...filler('billing')],
  ['Keys', 'A revoked key stops working immediately.', 'Region | Price | Tokens', 'Europe | 12 | 400', ...filler('keys')],
];

function filler(topic: string): string[] {
  return Array.from({ length: 6 }, (_, i) => `This line ${i + 1} says a little more about ${topic}, to fill the page.`);
}

describe('knowledge from files', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;

  const upload = (form: FormData, options: { key?: string; headers?: Record<string, string> } = {}) =>
    http.post('/api/v1/knowledge/files', { token: options.key ?? tenant.key, form, headers: options.headers });
  const query = (text: string) =>
    http.post('/api/v1/knowledge/query', { token: tenant.key, body: { org_id: tenant.orgId, query: text, match_count: 3, mode: 'keyword' } });
  const search = (text: string) =>
    http.post('/api/v1/knowledge/search', { token: tenant.key, body: { org_id: tenant.orgId, query: text, match_count: 20 } });
  const expectError = (response: { status: number; body: unknown; text: string }, status: number, code: string) => {
    assert.equal(response.status, status, response.text);
    assert.deepEqual(response.body, { error: code });
  };

  before(async () => {
    stack = await Stack.start({ env: { KB_CHUNK_SIZE: '200', KB_CHUNK_OVERLAP: '20', KB_MAX_FILE_BYTES: String(50 * 1024 * 1024) } });
    http = new Http(stack.url);
    tenant = await createTenant(http);
  });
  after(async () => stack?.stop());

  it('a PDF becomes a ready document whose matches carry their pages, and its original downloads as sent', async () => {
    const pdf = Buffer.from(await pdfWithLines(PAGES));
    const created = await upload(uploadForm(pdf, 'handbook.pdf', { metadata: JSON.stringify({ team: 'docs' }) }));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.status, 'processing');
    assert.equal(created.body.title, 'handbook.pdf');
    assert.deepEqual(created.body.file, { name: 'handbook.pdf', type: 'pdf', media_type: 'application/pdf', size_bytes: pdf.length });
    const ready = await waitForDocument(http, tenant.key, created.body.doc_id);
    assert.equal(ready.status, 'ready', ready.failure_reason);
    assert.deepEqual(ready.metadata, { team: 'docs' });

    const billing = await query('video generation service tokens');
    assert.equal(billing.status, 200, billing.text);
    const top = billing.body.matches[0];
    assert.equal(top.doc_id, created.body.doc_id);
    assert.match(top.content, /five hundred thousand/);
    // A chunk may begin at the end of the page before (its overlap): then it spans both.
    assert.equal(top.page_end, 2);
    assert.equal(top.page_start, /about runs/.test(top.content) ? 1 : 2);
    const keys = (await query('revoked key')).body.matches[0];
    assert.equal(keys.page_end, 3);
    assert.equal(keys.page_start, /about billing/.test(keys.content) ? 2 : 3);
    assert.match(keys.content, /Europe\s*\|?\s*12/);
    // The seed's search (by meaning only) carries the same pages on its matches.
    const searched = await search('Every video generation costs five hundred thousand service tokens.');
    assert.equal(searched.status, 200, searched.text);
    const same = searched.body.matches.find((match: any) => match.chunk_id === top.chunk_id);
    assert.ok(same, `the search finds the chunk the query found: ${searched.text}`);
    assert.deepEqual([same.page_start, same.page_end], [top.page_start, top.page_end]);
    for (const match of searched.body.matches)
      assert.ok(1 <= match.page_start && match.page_start <= match.page_end && match.page_end <= 3, JSON.stringify(match));

    const download = await http.get(`/api/v1/knowledge/documents/${created.body.doc_id}/file`, { token: tenant.key });
    assert.equal(download.status, 200);
    assert.equal(download.headers.get('content-type'), 'application/pdf');
    assert.equal(download.headers.get('content-disposition'), `attachment; filename="handbook.pdf"; filename*=UTF-8''handbook.pdf`);
    const bytes = Buffer.from(
      await (
        await fetch(`${stack.url}/api/v1/knowledge/documents/${created.body.doc_id}/file`, { headers: { authorization: `Bearer ${tenant.key}` } })
      ).arrayBuffer(),
    );
    assert.ok(bytes.equals(pdf), 'the download is the upload, byte for byte');
  });

  it('a Word file keeps its headings as sections and its table as rows', async () => {
    const docx = await wordDocument(
      [
        { heading: 'Onboarding', text: 'New engineers get a laptop on their first day.' },
        { heading: 'Expenses', text: 'Receipts are filed within thirty days.' },
      ],
      [
        ['Item', 'Limit'],
        ['Train ticket', '200 euros'],
      ],
    );
    const created = await upload(uploadForm(docx, 'Handbook.docx', { title: 'Handbook (Word)' }));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.file.type, 'docx');
    const ready = await waitForDocument(http, tenant.key, created.body.doc_id);
    assert.equal(ready.status, 'ready', ready.failure_reason);
    const [content] = await sql<{ content: string }>(`SELECT content FROM knowledge_documents WHERE id = $1`, [created.body.doc_id]);
    assert.match(content!.content, /^# Onboarding$/m);
    assert.match(content!.content, /^# Expenses$/m);
    assert.match(content!.content, /^Train ticket \| 200 euros$/m);
    const match = (await query('receipts filed')).body.matches[0];
    assert.equal(match.doc_id, created.body.doc_id);
    assert.equal(match.page_start, null);
    const searched = (await search('Receipts are filed within thirty days.')).body.matches.find((m: any) => m.doc_id === created.body.doc_id);
    assert.ok(searched, 'the search finds the Word document');
    assert.deepEqual([searched.page_start, searched.page_end], [null, null], 'a document without pages: null, as the query answers');
  });

  it('HTML is read without its scripts, styles and navigation; Markdown and text as they are', async () => {
    const html = Buffer.from(`<!doctype html><html><head><title>Leave</title><style>.x{color:stylesecret}</style>
      <script>var scriptsecret = 1;</script></head><body><nav>navsecret menu</nav>
      <h1>Leave policy</h1><p>Holidays are booked two weeks ahead.</p><footer>footersecret</footer></body></html>`);
    const page = await upload(uploadForm(html, 'leave.html'));
    assert.equal(page.status, 201, page.text);
    assert.equal(page.body.file.type, 'html');
    const markdown = await upload(uploadForm(Buffer.from('# Travel\n\nTrains beat planes under four hours.\n\n- one\n- two\n'), 'travel.bin'));
    assert.equal(markdown.body.file.type, 'markdown', 'recognised from its bytes, not its name');
    const text = await upload(uploadForm(Buffer.from('Parking is free for bicycles.\n'), 'parking.pdf'));
    assert.equal(text.body.file.type, 'text');
    for (const created of [page, markdown, text]) {
      assert.equal((await waitForDocument(http, tenant.key, created.body.doc_id)).status, 'ready');
    }
    const [indexed] = await sql<{ content: string }>(`SELECT string_agg(content, ' ') AS content FROM knowledge_chunks WHERE doc_id = $1`, [
      page.body.doc_id,
    ]);
    assert.match(indexed!.content, /Holidays are booked/);
    for (const secret of ['scriptsecret', 'stylesecret', 'navsecret', 'footersecret']) assert.doesNotMatch(indexed!.content, new RegExp(secret));
    assert.equal((await query('bicycles parking')).body.matches[0].doc_id, text.body.doc_id);
  });

  it('a file that yields no text ends failed with a reason a person understands', async () => {
    const scanned = await upload(uploadForm(await imageOnlyPdf(2), 'scan.pdf'));
    assert.equal(scanned.status, 201, scanned.text);
    const failed = await waitForDocument(http, tenant.key, scanned.body.doc_id);
    assert.equal(failed.status, 'failed');
    assert.match(failed.failure_reason, /no text/i);

    const pdf = Buffer.from(await pdfWithLines(PAGES));
    const truncated = await upload(uploadForm(pdf.subarray(0, Math.floor(pdf.length / 2)), 'truncated.pdf'));
    assert.equal(truncated.status, 201, truncated.text);
    const broken = await waitForDocument(http, tenant.key, truncated.body.doc_id);
    assert.equal(broken.status, 'failed');
    assert.ok(broken.failure_reason, 'a reason is given');
  });

  it('real-world files: a report with a table, a Word manual, a saved web page', async () => {
    const [report, manual, page] = await Promise.all(
      [
        ['report.pdf', 'pdf'],
        ['headings.docx', 'docx'],
        ['saved-page.html', 'html'],
      ].map(async ([name, type]) => {
        const created = await upload(uploadForm(fixture(name!), name!));
        assert.equal(created.status, 201, created.text);
        assert.equal(created.body.file.type, type);
        const ready = await waitForDocument(http, tenant.key, created.body.doc_id);
        assert.equal(ready.status, 'ready', `${name}: ${ready.failure_reason}`);
        return ready;
      }),
    );
    const anchors = (await query('anchor chain quantity')).body.matches.find((m: any) => m.doc_id === report.doc_id);
    assert.ok(anchors, 'the table row is found');
    assert.match(anchors.content, /Anchor chain\s*\|\s*12\s*\|\s*Dock A/);
    assert.equal(anchors.page_end, 2);
    const silt = (await query('conclusions about silt')).body.matches.find((m: any) => m.doc_id === report.doc_id);
    assert.equal(silt.page_end, 3);
    const gauge = (await query('calibrate the tide gauge')).body.matches[0];
    assert.equal(gauge.doc_id, manual.doc_id);
    const [chunks] = await sql<{ content: string }>(`SELECT string_agg(content, ' ') AS content FROM knowledge_chunks WHERE doc_id = $1`, [
      page.doc_id,
    ]);
    assert.ok(chunks!.content.length > 100, 'the article is indexed');
    assert.doesNotMatch(chunks!.content, /MUST-NOT-APPEAR/, 'no script, style, navigation, form or comment text');
  });

  it('an agent cites the pages of what it found', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'local/extractive', tools: [{ type: 'knowledge_search' }] });
    const created = await http.post('/api/v1/agent-runs', {
      token: tenant.key,
      body: { org_id: tenant.orgId, agent_version_id: versionId, input: 'How many anchor chains are in the inventory?' },
    });
    assert.ok(created.status < 300, created.text);
    const { run } = await waitForRun(http, tenant.key, created.body.run_id);
    assert.equal(run.status, 'succeeded', JSON.stringify(run));
    assert.match(run.output, /Anchor chain[^\n]*\[doc [0-9a-f-]+, pp?\. [0-9]/);
  });

  it('an encrypted PDF and a decompression bomb disguised as Word end failed, and the worker lives on', async () => {
    const encrypted = await upload(uploadForm(fixture('encrypted.pdf'), 'encrypted.pdf'));
    assert.equal(encrypted.status, 201, encrypted.text);
    const bomb = await upload(uploadForm(zipBytes([WORD_CONTENT_TYPES, spacesBombEntry('word/document.xml', 1024)]), 'bomb.docx'));
    assert.equal(bomb.status, 201, bomb.text);
    assert.equal(bomb.body.file.type, 'docx');
    const lying = await upload(uploadForm(zipBytes([WORD_CONTENT_TYPES, spacesBombEntry('word/document.xml', 1024, 1024)]), 'lying.docx'));
    assert.equal((await waitForDocument(http, tenant.key, encrypted.body.doc_id)).failure_reason, 'the PDF is protected by a password');
    assert.match((await waitForDocument(http, tenant.key, bomb.body.doc_id)).failure_reason, /decompression bomb/);
    assert.match((await waitForDocument(http, tenant.key, lying.body.doc_id)).failure_reason, /decompression bomb/);
    const after = await upload(uploadForm(Buffer.from('The worker is still here.'), 'alive.txt'));
    assert.equal((await waitForDocument(http, tenant.key, after.body.doc_id)).status, 'ready');
  });

  it('a document replaced by a new file: revision 2 serves the new text, the new original downloads, the old one is gone', async () => {
    const first = await upload(uploadForm(Buffer.from('# Canteen\n\nThe canteen opens at eight.\n'), 'canteen.md'));
    assert.equal((await waitForDocument(http, tenant.key, first.body.doc_id)).status, 'ready');
    const docx = await wordDocument([{ heading: 'Canteen', text: 'The canteen now opens at nine sharp.' }], [['Day', 'Hours']]);
    const replaced = await http.request('PUT', `/api/v1/knowledge/documents/${first.body.doc_id}/file`, {
      token: tenant.key,
      form: uploadForm(docx, 'canteen.docx'),
    });
    assert.equal(replaced.status, 202, replaced.text);
    assert.equal(replaced.body.revision, 2);
    assert.equal(replaced.body.title, 'canteen.md', 'the title is kept unless given');
    assert.equal(replaced.body.file.type, 'docx');
    const ready = await waitForDocument(http, tenant.key, first.body.doc_id);
    assert.equal(ready.status, 'ready', ready.failure_reason);
    assert.equal(ready.ready_revision, 2);
    const matches = (await query('canteen opens')).body.matches.filter((m: any) => m.doc_id === first.body.doc_id);
    assert.ok(matches.length > 0);
    for (const match of matches) assert.doesNotMatch(match.content, /at eight/);
    const download = await fetch(`${stack.url}/api/v1/knowledge/documents/${first.body.doc_id}/file`, {
      headers: { authorization: `Bearer ${tenant.key}` },
    });
    assert.ok(Buffer.from(await download.arrayBuffer()).equals(docx));
    expectError(
      await http.request('PUT', `/api/v1/knowledge/documents/${crypto.randomUUID()}/file`, { token: tenant.key, form: uploadForm(docx, 'x.docx') }),
      404,
      'not_found',
    );
    await storedFiles();
  });

  it('refuses what is not a document, too large, or malformed, and keeps nothing of it', async () => {
    const before = await storedFiles();
    const png = await upload(uploadForm(tinyPng(), 'handbook.pdf'));
    expectError(png, 415, 'unsupported_media_type');
    assert.match(png.headers.get('error-detail') ?? '', /image\/png/);

    const huge = await upload(uploadForm(Buffer.alloc(60 * 1024 * 1024, 0x61), 'huge.txt'));
    expectError(huge, 413, 'payload_too_large');

    expectError(await upload(new FormData()), 400, 'invalid_request');
    const noFile = new FormData();
    noFile.append('title', 'No file');
    expectError(await upload(noFile), 400, 'invalid_request');
    expectError(await upload(uploadForm(Buffer.from('hello'), 'a.txt', { colour: 'blue' })), 400, 'invalid_request');
    expectError(await upload(uploadForm(Buffer.from('hello'), 'a.txt', { metadata: 'not json' })), 400, 'invalid_request');
    expectError(await upload(uploadForm(Buffer.from('hello'), 'a.txt', { metadata: '[1]' })), 400, 'invalid_request');
    expectError(await upload(uploadForm(Buffer.from(''), 'empty.txt')), 400, 'invalid_request');
    const twoFiles = uploadForm(Buffer.from('one'), 'one.txt');
    twoFiles.append('file', new Blob([Buffer.from('two')]), 'two.txt');
    expectError(await upload(twoFiles), 400, 'invalid_request');
    const otherOrg = await createTenant(http);
    expectError(await upload(uploadForm(Buffer.from('hello'), 'a.txt', { org_id: otherOrg.orgId })), 403, 'insufficient_scope');
    expectError(
      await http.post('/api/v1/knowledge/files', { token: tenant.key, body: { org_id: tenant.orgId, title: 'x' } }),
      415,
      'unsupported_media_type',
    );
    expectError(
      await http.post('/api/v1/knowledge/files', {
        token: tenant.key,
        rawBody: '--x\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated',
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
      }),
      400,
      'invalid_request',
    );
    // A JSON operation refuses a form as it refuses any body that is not JSON.
    expectError(
      await http.post('/api/v1/knowledge/search', { token: tenant.key, form: uploadForm(Buffer.from('x'), 'x.txt') }),
      415,
      'unsupported_media_type',
    );
    const readOnly = await createKey(http, tenant.orgId, ['kb:read']);
    expectError(await upload(uploadForm(Buffer.from('hello'), 'a.txt'), { key: readOnly }), 403, 'insufficient_scope');
    assert.deepEqual(await storedFiles(), before, 'no refused upload left a file in the media store');
  });

  it('an Idempotency-Key returns the first upload for the same bytes and 409 for others', async () => {
    const headers = { 'idempotency-key': `upload-${Date.now()}` };
    const first = await upload(uploadForm(Buffer.from('Lunch is served at noon.'), 'lunch.txt'), { headers });
    assert.equal(first.status, 201, first.text);
    const again = await upload(uploadForm(Buffer.from('Lunch is served at noon.'), 'lunch.txt'), { headers });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.doc_id, first.body.doc_id);
    expectError(await upload(uploadForm(Buffer.from('Lunch is served at one.'), 'lunch.txt'), { headers }), 409, 'idempotency_key_reused');
    const [count] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM knowledge_documents WHERE org_id = $1 AND title = 'lunch.txt'`, [
      tenant.orgId,
    ]);
    assert.equal(count!.n, 1);
  });

  it("a document's file is its organisation's alone, and a text document has none", async () => {
    const created = await upload(uploadForm(Buffer.from('Private notes.'), 'notes.txt'));
    const other = await createTenant(http);
    expectError(await http.get(`/api/v1/knowledge/documents/${created.body.doc_id}/file`, { token: other.key }), 404, 'not_found');
    const text = await http.post('/api/v1/knowledge/documents', {
      token: tenant.key,
      body: { org_id: tenant.orgId, title: 'Text', content: 'Made from text.' },
    });
    assert.equal(text.body.file, null);
    expectError(await http.get(`/api/v1/knowledge/documents/${text.body.doc_id}/file`, { token: tenant.key }), 404, 'not_found');
    const deleted = await http.request('DELETE', `/api/v1/knowledge/documents/${created.body.doc_id}`, { token: tenant.key });
    assert.equal(deleted.status, 204);
    expectError(await http.get(`/api/v1/knowledge/documents/${created.body.doc_id}/file`, { token: tenant.key }), 404, 'not_found');
  });

  it('a knowledge base deleted with its documents takes their files with it', async () => {
    const base = await http.post('/api/v1/knowledge-bases', { token: tenant.key, body: { org_id: tenant.orgId, name: `Scratch ${Date.now()}` } });
    assert.equal(base.status, 201, base.text);
    const created = await upload(uploadForm(Buffer.from('Scratch notes.'), 'scratch.txt', { knowledge_base_id: base.body.knowledge_base_id }));
    assert.equal(created.status, 201, created.text);
    assert.equal(created.body.knowledge_base_id, base.body.knowledge_base_id);
    const [row] = await sql<{ file_key: string }>(`SELECT file_key FROM knowledge_documents WHERE id = $1`, [created.body.doc_id]);
    const { existsSync } = await import('node:fs');
    assert.ok(existsSync(`${stack.env.MEDIA_DIR}/knowledge/${row!.file_key}`));
    const deleted = await http.request('DELETE', `/api/v1/knowledge-bases/${base.body.knowledge_base_id}?cascade=true`, { token: tenant.key });
    assert.equal(deleted.status, 204, deleted.text);
    assert.ok(!existsSync(`${stack.env.MEDIA_DIR}/knowledge/${row!.file_key}`), 'the original is gone with its document');
    await storedFiles();
  });

  /** The originals in this stack's media store, each the file of one document (none left over). */
  async function storedFiles(): Promise<number> {
    const { readdir } = await import('node:fs/promises');
    const names = (await readdir(`${stack.env.MEDIA_DIR}/knowledge`).catch(() => [] as string[])).filter((name) => !name.startsWith('.'));
    const [row] = await sql<{ n: number }>(`SELECT count(*)::int AS n FROM knowledge_documents WHERE file_key = ANY($1::text[])`, [names]);
    assert.equal(row!.n, names.length, 'every stored file belongs to a document');
    return names.length;
  }
});
