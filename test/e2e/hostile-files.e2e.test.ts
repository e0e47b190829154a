import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { uploadForm } from '../support/document-files';
import { hostileCorpus } from '../support/hostile-files';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createTenant, waitForDocument, waitForRun, type Tenant } from '../support/tenant';

const GIB = 1024 * 1024 * 1024;
/** Two extraction threads of 512 MiB of heap each, what they inflate and read beside it, and the worker itself. */
const WORKER_RSS_BOUND = 2 * GIB;
/** Another organisation's run takes well under a second here; this bound only says nothing froze. */
const BYSTANDER_RUN_BOUND_MS = 10_000;
/** The extraction limits' wall clock is 120 s a file: each file ends long before that. */
const FILE_BOUND_MS = 150_000;

/** What each corpus file must end as: a refusal whose reason says why, or either outcome within the limits. */
const EXPECTED: Record<string, RegExp | 'ready or failed'> = {
  'content-stream-bomb': /^a compressed stream in the file expands beyond 64 MiB/,
  'image-bomb': /^a compressed stream in the file expands beyond 64 MiB/,
  'object-stream-bomb': /^a compressed stream in the file expands beyond 64 MiB/,
  '30000-page-tree': /^the PDF has more than 5000 pages$/,
  'nested-arrays': 'ready or failed',
  'nested-dictionaries': 'ready or failed',
  'self-drawing-xobject': 'ready or failed',
  'garbage-font-program': 'ready or failed',
  'word-nested-entities': 'ready or failed',
  'word-external-entity': 'ready or failed',
  'html-nested-200000-deep': /^the HTML nests its elements more than 2000 deep$/,
  'markdown-5-mib-one-line': /^the file's text is longer than 5000000 characters$/,
};

/** The resident set of a process, from /proc. */
function residentBytes(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8').match(/^VmRSS:\s+(\d+) kB$/m);
  return line ? Number(line[1]) * 1024 : 0;
}

describe('hostile files', () => {
  let stack: Stack;
  let http: Http;
  let attacker: Tenant;
  let bystander: Tenant;

  before(async () => {
    stack = await Stack.start();
    http = new Http(stack.url);
    [attacker, bystander] = await Promise.all([createTenant(http), createTenant(http)]);
    // Warm: the first run and the first file of a new worker pay for its start (an extraction thread, pdf.js loaded).
    await runOfBystander('warming up');
    await smallUploadOfBystander('warming up');
  });
  after(async () => stack?.stop());

  /** A run of the other organisation, start to `succeeded`, in ms. */
  const runOfBystander = async (input: string): Promise<number> => {
    const started = Date.now();
    const created = await http.post('/api/v1/agent-runs', {
      token: bystander.key,
      body: { org_id: bystander.orgId, agent_version_id: bystander.versionId, input },
    });
    assert.equal(created.status, 200, created.text);
    const { run } = await waitForRun(http, bystander.key, created.body.run_id, BYSTANDER_RUN_BOUND_MS);
    assert.equal(run.status, 'succeeded', `the other organisation's run ${JSON.stringify(run)}`);
    return Date.now() - started;
  };

  /** A small upload of the other organisation, waited for until its ingestion ends. */
  const smallUploadOfBystander = async (occasion: string): Promise<any> => {
    const small = await http.post('/api/v1/knowledge/files', {
      token: bystander.key,
      form: uploadForm(Buffer.from(`A small note written while ${occasion} was read.\n`), 'note.txt'),
    });
    assert.equal(small.status, 201, small.text);
    return waitForDocument(http, bystander.key, small.body.doc_id, BYSTANDER_RUN_BOUND_MS * 3);
  };

  it("end failed or ready in bounded time, the worker's memory bounded, while another organisation's runs and uploads go through", async (t) => {
    const workers = stack.worker.members.map((member) => ({ member, pid: member.child.pid! }));
    let peakRss = 0;
    const sampler = setInterval(() => {
      for (const { pid } of workers) peakRss = Math.max(peakRss, residentBytes(pid));
    }, 50);
    const rows: string[] = [];
    try {
      for (const file of hostileCorpus()) {
        const started = Date.now();
        const uploaded = await http.post('/api/v1/knowledge/files', { token: attacker.key, form: uploadForm(file.bytes, file.fileName) });
        assert.equal(uploaded.status, 201, `${file.name}: ${uploaded.text}`);

        const [hostile, runMs, bystanderDoc] = await Promise.all([
          waitForDocument(http, attacker.key, uploaded.body.doc_id, FILE_BOUND_MS),
          runOfBystander(`While ${file.name} is read`),
          smallUploadOfBystander(file.name),
        ]);
        const fileMs = Date.now() - started;
        assert.equal(bystanderDoc.status, 'ready', `${file.name}: the other organisation's upload ${JSON.stringify(bystanderDoc)}`);
        assert.ok(runMs < BYSTANDER_RUN_BOUND_MS, `${file.name}: the other organisation's run took ${runMs} ms`);
        const expected = EXPECTED[file.name];
        if (expected === 'ready or failed') assert.ok(['ready', 'failed'].includes(hostile.status), `${file.name}: ${hostile.status}`);
        else {
          assert.equal(hostile.status, 'failed', `${file.name}: ${JSON.stringify(hostile)}`);
          assert.match(hostile.failure_reason, expected, file.name);
        }
        if (file.name === 'word-external-entity') assert.doesNotMatch(JSON.stringify(hostile), /root:/, 'the external entity was not read');
        rows.push(
          `${file.name}: ${hostile.status}${hostile.failure_reason ? ` (${hostile.failure_reason})` : ''} in ${fileMs} ms; the other organisation's run ${runMs} ms`,
        );
      }
    } finally {
      clearInterval(sampler);
    }
    for (const row of rows) t.diagnostic(row);
    t.diagnostic(`peak worker RSS ${Math.round(peakRss / 1024 / 1024)} MiB (bound ${WORKER_RSS_BOUND / GIB} GiB)`);
    assert.ok(peakRss > 0 && peakRss < WORKER_RSS_BOUND, `peak worker RSS ${peakRss} bytes`);
    for (const { member, pid } of workers) {
      assert.ok(member.running, `worker ${pid} is still running`);
      assert.equal(member.log().split('pylon worker polling').length - 1, 1, `worker ${pid} started once`);
    }
  });
});
