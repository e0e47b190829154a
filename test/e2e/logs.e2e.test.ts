import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { MAX_LOG_LINE_BYTES } from '@pylon/logging';
import { sql } from '../support/db';
import { Http, type HttpResponse } from '../support/http';
import { openRaw } from '../support/raw-http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { pause, until } from '../support/wait';
import { createTenant, type Tenant } from '../support/tenant';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
/** Rows whose name, title or URL carries this marker break a CHECK constraint this suite adds. */
const PROBE = 'logs-e2e-probe';
const CONSTRAINTS = [
  ['webhook_endpoints', 'logs_e2e_probe_url', `url NOT LIKE '%${PROBE}%'`],
  ['knowledge_documents', 'logs_e2e_probe_title', `title NOT LIKE '${PROBE}%'`],
  ['api_keys', 'logs_e2e_probe_roll', `name NOT LIKE '${PROBE}%' OR previous_secret_hash IS NULL`],
] as const;

interface LogEntry {
  level?: number;
  truncated?: { originalBytes: number };
  msg?: string;
  requestId?: string;
  context?: string;
  req?: { id?: string; url?: string };
  res?: { statusCode?: number };
  err?: { code?: string; constraint?: string; table?: string };
}

/** A JSON log line; not the API's console lines ("pylon api listening …"), nor a line still being written. */
function parseEntry(line: string): LogEntry[] {
  try {
    return line.startsWith('{') ? [JSON.parse(line) as LogEntry] : [];
  } catch {
    return [];
  }
}

/**
 * What the API logs (issue 9): database errors that carry user content, key hashes and a webhook
 * secret in their parameters and in the row PostgreSQL quotes, huge bodies, credentials in headers;
 * and the request id on every line of a request and on every response.
 */
describe('logs: no secrets, bounded lines, a request id everywhere', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let probeKeyHash: string;
  const bodyMarker = `body-marker-${randomBytes(8).toString('hex')}`;
  const responses: Array<{ what: string; response: HttpResponse; sentId?: string; status: number }> = [];
  let lines: string[] = [];
  let entries: LogEntry[] = [];

  async function send(
    what: string,
    status: number,
    method: string,
    path: string,
    options: Parameters<Http['request']>[2] & { requestId?: string } = {},
  ) {
    const headers = { ...options.headers, ...(options.requestId === undefined ? {} : { 'x-request-id': options.requestId }) };
    const response = await http.request(method, path, { ...options, headers });
    assert.equal(response.status, status, `${what}: ${response.text}`);
    responses.push({ what, response, sentId: options.requestId, status });
    return response;
  }

  before(async () => {
    // debug: TypeORM's own "query failed" lines are written too.
    stack = await Stack.start({ worker: false, env: { LOG_LEVEL: 'debug', WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback' } });
    http = new Http(stack.url);
    tenant = await createTenant(http);
    const probeKey = (
      await http.post(`/admin/v1/orgs/${tenant.orgId}/api-keys`, { token: testInfra().adminToken, body: { name: `${PROBE} key`, scopes: ['*'] } })
    ).body as { api_key: string; key_id: string };
    probeKeyHash = createHash('sha256').update(probeKey.api_key).digest('hex');
    for (const [table, name, check] of CONSTRAINTS) await sql(`ALTER TABLE ${table} ADD CONSTRAINT ${name} CHECK (${check}) NOT VALID`);

    // Database errors: the parameters and the quoted row hold the secret, the hashes and the content.
    await send('a webhook endpoint whose INSERT fails', 500, 'POST', '/api/v1/webhook-endpoints', {
      token: tenant.key,
      requestId: 'logs-e2e.sane:1',
      body: { org_id: tenant.orgId, url: `http://127.0.0.1:9/${PROBE}`, description: bodyMarker },
    });
    await send('a 400 kB document whose INSERT fails', 500, 'POST', '/api/v1/knowledge/documents', {
      token: tenant.key,
      body: { org_id: tenant.orgId, title: `${PROBE} doc`, content: `${bodyMarker} ${'x'.repeat(400_000)}` },
    });
    await send('a key roll whose UPDATE fails', 500, 'POST', `/admin/v1/api-keys/${probeKey.key_id}/roll`, {
      token: testInfra().adminToken,
      requestId: 'x'.repeat(129),
      body: {},
    });
    // Other error paths, with credentials and the body marker in headers and bodies.
    await send('an unknown key', 401, 'GET', '/api/v1/agent-runs', { token: `pyl_${'Z'.repeat(40)}`, requestId: 'not sane!' });
    await send('an unknown route', 404, 'GET', `/api/v1/nowhere?secret=whsec_${bodyMarker}`, { token: tenant.key });
    await send('a 10 kB URL, too long for one log line', 414, 'GET', `/api/v1/${'u'.repeat(10_000)}`, {
      token: tenant.key,
      requestId: 'logs-e2e-long-url',
    });
    await send('malformed JSON', 400, 'POST', '/api/v1/agent-runs', {
      token: tenant.key,
      rawBody: `{"input": "${bodyMarker}`,
      headers: { 'content-type': 'application/json' },
    });
    await send('a body over the limit', 413, 'POST', '/api/v1/agent-runs', {
      token: tenant.key,
      body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: `${bodyMarker} whsec_${'y'.repeat(1_100_000)}` },
    });
    await send('a run', 200, 'POST', '/api/v1/agent-runs', {
      token: tenant.key,
      requestId: 'logs-e2e-run',
      body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: bodyMarker },
    });
    // Each request's access line is written when its response is finished: wait for the last one.
    const readLog = () => {
      lines = stack.api
        .log()
        .split('\n')
        .filter((line) => line.length > 0);
      entries = lines.flatMap(parseEntry);
    };
    await until(
      'the access line of the last request',
      () => {
        readLog();
        return entries.some((entry) => entry.requestId === 'logs-e2e-run' && entry.res);
      },
      { timeoutMs: 10_000 },
    ).catch((error: Error) => assert.fail(`${error.message}:\n${lines.slice(-5).join('\n')}`));
  });

  after(async () => {
    for (const [table, name] of CONSTRAINTS) await sql(`ALTER TABLE ${table} DROP CONSTRAINT IF EXISTS ${name}`).catch(() => undefined);
    await stack?.stop();
  });

  it('logs no secret, key hash, request body or SQL parameter', () => {
    const forbidden: Array<[what: string, pattern: RegExp]> = [
      ['a webhook secret', /whsec_/],
      ['an API key', /pyl_/],
      ['the probe key hash', new RegExp(probeKeyHash)],
      ['any SHA-256 hex digest (key hashes)', /[0-9a-f]{64}/],
      ['the request bodies', new RegExp(bodyMarker)],
      ['a row quoted by PostgreSQL', /Failing row contains/],
      ['the admin token', new RegExp(testInfra().adminToken)],
      ['a bearer credential', /Bearer /],
    ];
    for (const [what, pattern] of forbidden) {
      const offending = lines.find((line) => pattern.test(line));
      assert.equal(offending, undefined, `a line holds ${what}`);
    }
  });

  it('keeps every line under the bound, and says when it cut one', () => {
    for (const line of lines) assert.ok(Buffer.byteLength(line) < MAX_LOG_LINE_BYTES, `a line of ${Buffer.byteLength(line)} bytes`);
    const longUrlLine = entries.find((entry) => entry.requestId === 'logs-e2e-long-url' && entry.res);
    assert.ok(longUrlLine?.truncated && longUrlLine.truncated.originalBytes > 10_000, JSON.stringify(longUrlLine));
    assert.equal(longUrlLine.res?.statusCode, 414);
  });

  it('logs each database error with its code, constraint and table', () => {
    const failures = entries.filter((entry) => entry.context === 'ErrorFilter');
    assert.equal(failures.length, 3, JSON.stringify(failures));
    assert.deepEqual(
      failures.map((entry) => [entry.err?.code, entry.err?.constraint, entry.err?.table]).sort(),
      CONSTRAINTS.map(([table, name]) => ['23514', name, table]).sort(),
    );
    assert.ok(!lines.some((line) => line.includes('request undefined')));
  });

  it('writes the request id on every line of a request, the same as the response header', () => {
    const requestLines = entries.filter((entry) => entry.req || entry.res || entry.context === 'ErrorFilter' || entry.context === 'Database');
    assert.ok(requestLines.length >= responses.length, `${requestLines.length} request lines`);
    for (const entry of requestLines) assert.ok(entry.requestId, `a request line without its id: ${JSON.stringify(entry)}`);
    const databaseLines = entries.filter((entry) => entry.context === 'Database');
    assert.ok(databaseLines.length >= 3, "TypeORM's failed queries are logged (at debug)");
    for (const { what, response } of responses) {
      const id = response.headers.get('x-request-id')!;
      const ofThisRequest = entries.filter((entry) => entry.requestId === id);
      assert.ok(
        ofThisRequest.some((entry) => entry.res),
        `${what}: no access line with its id ${id}`,
      );
      if (response.status >= 500) {
        assert.ok(
          ofThisRequest.some((entry) => entry.context === 'ErrorFilter' && entry.msg === `request ${id} failed: internal_error`),
          `${what}: no error line`,
        );
        assert.ok(
          ofThisRequest.some((entry) => entry.context === 'Database'),
          `${what}: no query-failed line with its id`,
        );
      }
    }
  });

  it('answers every request with its X-Request-Id: the caller’s when sane, else a new UUID', () => {
    const ids = new Set<string>();
    for (const { what, response, sentId } of responses) {
      const id = response.headers.get('x-request-id');
      assert.ok(id, `${what}: no X-Request-Id`);
      if (sentId !== undefined && /^[A-Za-z0-9._:-]{1,128}$/.test(sentId)) assert.equal(id, sentId, what);
      else assert.match(id, UUID, what);
      ids.add(id);
    }
    assert.equal(ids.size, responses.length, 'every request has an id of its own');
    const sent = responses.filter(({ sentId }) => sentId !== undefined);
    assert.ok(
      sent.some(({ sentId, response }) => response.headers.get('x-request-id') === sentId),
      'no sane id was echoed',
    );
    assert.ok(
      sent.some(({ sentId, response }) => response.headers.get('x-request-id') !== sentId),
      'no insane id was replaced',
    );
  });

  it('logs a client that disconnects mid-body at info, as such, not as a database failure', async () => {
    const connection = openRaw(stack.url);
    connection.response.catch(() => undefined); // the client leaves before any answer
    await connection.connected;
    const marker = `left-mid-body-${randomBytes(4).toString('hex')}`;
    connection.socket.write(
      `POST /api/v1/agent-runs HTTP/1.1\r\nHost: pylon\r\nX-Request-Id: ${marker}\r\nAuthorization: Bearer ${tenant.key}\r\n` +
        `Content-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"org_id": "`,
    );
    // Not a wait for a condition: the server reads the head and the start of the body meanwhile, which nothing
    // outside it shows; then the client leaves.
    await pause(200);
    connection.socket.destroy();
    let ofIt: LogEntry[] = [];
    await until(
      'the abort logged',
      () => {
        ofIt = stack.api
          .log()
          .split('\n')
          .flatMap(parseEntry)
          .filter((entry) => JSON.stringify(entry).includes(marker) || entry.msg?.includes('closed the connection before its body ended'));
        return ofIt.some((entry) => entry.msg?.includes('closed the connection'));
      },
      { timeoutMs: 10_000 },
    ).catch(() => undefined); // the assertions below say what is missing
    const said = ofIt.find((entry) => entry.msg?.includes('closed the connection before its body ended'));
    assert.ok(said, 'the abort is logged as such');
    assert.equal(said.level, 30, 'at info');
    assert.ok(!ofIt.some((entry) => JSON.stringify(entry).includes('database_unavailable')), 'not as a database failure');
  });
});
