import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Http } from '../support/http';
import { openRaw, sendRaw, untilRefused } from '../support/raw-http';
import { Stack } from '../support/stack';
import { createTenant, type Tenant } from '../support/tenant';

/** The error codes docs/api.md lists for clients ("Every error is exactly …", up to its "Body limits" section). */
function documentedCodes(): Set<string> {
  const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'api.md'), 'utf8');
  const list = doc.slice(doc.indexOf('Every error is exactly'), doc.indexOf('\n## Body limits\n'));
  return new Set([...list.matchAll(/`([a-z_]+)`/g)].map((match) => match[1]!));
}

const REQUEST_TIMEOUT_MS = 1_000;

/**
 * Responses the framework produces itself, before or instead of a route handler: Node's HTTP parser,
 * Fastify's router and content-type parsing. Each is exactly `{"error": "<code>"}` with a documented
 * code, quoting nothing of the request. Raw sockets, since an HTTP client would refuse to send most of these.
 */
describe('errors the framework answers: exactly {"error": code}', () => {
  let stack: Stack;
  let tenant: Tenant;
  const codes = documentedCodes();

  before(async () => {
    stack = await Stack.start({ worker: false, env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS) } });
    tenant = await createTenant(new Http(stack.url));
  });
  after(async () => stack?.stop());

  const head = (requestLine: string, fields: string[] = []) =>
    `${requestLine}\r\nHost: pylon\r\nConnection: close\r\n${fields.map((field) => `${field}\r\n`).join('')}\r\n`;
  const post = (path: string, fields: string[], body: string, auth = true) =>
    head(`POST ${path} HTTP/1.1`, [
      ...(auth ? [`Authorization: Bearer ${tenant.key}`] : []),
      ...fields,
      `Content-Length: ${Buffer.byteLength(body)}`,
    ]) + body;
  const runBody = () => JSON.stringify({ org_id: tenant.orgId, agent_version_id: tenant.versionId, input: 'hi' });

  const cases: Array<{ label: string; request: () => string; status: number; code: string; headers?: Record<string, string> }> = [
    { label: 'an unknown route', request: () => head('GET /api/v1/nope HTTP/1.1'), status: 404, code: 'not_found' },
    {
      label: 'a known path with a method it does not have',
      request: () => head('PUT /api/v1/agent-runs HTTP/1.1', ['Content-Length: 0']),
      status: 405,
      code: 'method_not_allowed',
      headers: { allow: 'GET, HEAD, POST' },
    },
    {
      label: 'DELETE on a read-only path with a parameter',
      request: () => head(`DELETE /api/v1/agent-runs/${tenant.orgId} HTTP/1.1`),
      status: 405,
      code: 'method_not_allowed',
      headers: { allow: 'GET, HEAD' },
    },
    {
      label: 'OPTIONS on a known path',
      request: () => head('OPTIONS /api/v1/tokens/balance HTTP/1.1'),
      status: 405,
      code: 'method_not_allowed',
      headers: { allow: 'GET, HEAD' },
    },
    {
      label: 'bad percent-encoding in a route parameter',
      request: () => head('GET /api/v1/agent-runs/%zz HTTP/1.1'),
      status: 400,
      code: 'invalid_request',
    },
    { label: 'bad percent-encoding on an unknown path', request: () => head('GET /nope/%E0%A4%A HTTP/1.1'), status: 400, code: 'invalid_request' },
    {
      label: 'a route parameter of 200 characters',
      request: () => head(`GET /api/v1/agent-runs/${'a'.repeat(200)} HTTP/1.1`),
      status: 414,
      code: 'uri_too_long',
    },
    {
      label: 'a URL of 10 000 characters',
      request: () => head(`GET /api/v1/agent-runs?cursor=${'a'.repeat(10_000)} HTTP/1.1`),
      status: 414,
      code: 'uri_too_long',
    },
    {
      label: 'a path of 20 kB (beyond the parser)',
      request: () => head(`GET /${'a'.repeat(20_000)} HTTP/1.1`),
      status: 431,
      code: 'header_fields_too_large',
    },
    {
      label: 'a header of 20 kB',
      request: () => head('GET /healthz HTTP/1.1', [`X-Filler: ${'a'.repeat(20_000)}`]),
      status: 431,
      code: 'header_fields_too_large',
    },
    { label: 'a header name with a space', request: () => head('GET /healthz HTTP/1.1', ['Bad Header: x']), status: 400, code: 'invalid_request' },
    { label: 'a method HTTP does not know', request: () => head('FETCHALL /api/v1/agent-runs HTTP/1.1'), status: 400, code: 'invalid_request' },
    { label: 'a request line without an HTTP version (HTTP/0.9)', request: () => 'GET /healthz\r\n\r\n', status: 400, code: 'invalid_request' },
    {
      label: 'a request line without an HTTP version and no blank line after it, answered at once',
      request: () => 'GET /healthz\r\n',
      status: 400,
      code: 'invalid_request',
    },
    { label: 'not HTTP at all', request: () => '\u0001\u0002 hello\r\n\r\n', status: 400, code: 'invalid_request' },
    {
      label: 'both Content-Length and Transfer-Encoding',
      request: () =>
        head('POST /api/v1/agent-runs HTTP/1.1', ['Content-Type: application/json', 'Content-Length: 2', 'Transfer-Encoding: chunked']) + '{}',
      status: 400,
      code: 'invalid_request',
    },
    {
      label: 'an Expect other than 100-continue',
      request: () => post('/api/v1/agent-runs', ['Expect: coffee', 'Content-Type: application/json'], runBody()),
      status: 417,
      code: 'expectation_failed',
    },
    {
      label: 'a Content-Length over the body limit',
      request: () =>
        head('POST /api/v1/agent-runs HTTP/1.1', [
          `Authorization: Bearer ${tenant.key}`,
          'Content-Type: application/json',
          'Content-Length: 50000000',
        ]),
      status: 413,
      code: 'payload_too_large',
    },
    {
      label: 'a Content-Type that is not a media type',
      request: () => post('/api/v1/agent-runs', ['Content-Type: @@@;;'], runBody()),
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      label: 'a text/plain body',
      request: () => post('/api/v1/agent-runs', ['Content-Type: text/plain'], runBody()),
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      label: 'a form body',
      request: () => post('/api/v1/agent-runs', ['Content-Type: application/x-www-form-urlencoded'], 'input=hi'),
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      label: 'JSON declared as latin1',
      request: () => post('/api/v1/agent-runs', ['Content-Type: application/json; charset=latin1'], runBody()),
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      label: 'a JSON body labelled Content-Encoding: gzip (nothing here decodes it)',
      request: () => post('/api/v1/agent-runs', ['Content-Type: application/json', 'Content-Encoding: gzip'], runBody()),
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      label: 'a JSON body labelled Content-Encoding: br',
      request: () => post('/api/v1/agent-runs', ['Content-Type: application/json', 'Content-Encoding: br'], runBody()),
      status: 415,
      code: 'unsupported_media_type',
    },
    {
      label: 'two Content-Type headers, JSON first',
      request: () => post('/api/v1/agent-runs', ['Content-Type: application/json', 'Content-Type: text/plain'], runBody()),
      status: 400,
      code: 'invalid_request',
    },
    {
      label: 'two Content-Type headers, JSON second',
      request: () => post('/api/v1/agent-runs', ['Content-Type: text/plain', 'Content-Type: application/json'], runBody()),
      status: 400,
      code: 'invalid_request',
    },
    { label: 'a body without a Content-Type', request: () => post('/api/v1/agent-runs', [], runBody()), status: 415, code: 'unsupported_media_type' },
    {
      label: 'an unsupported media type still needs a key first',
      request: () => post('/api/v1/agent-runs', ['Content-Type: text/plain'], runBody(), false),
      status: 401,
      code: 'missing_api_key',
    },
    {
      label: 'invalid JSON',
      request: () => post('/api/v1/agent-runs', ['Content-Type: application/json'], '{"org_id": '),
      status: 400,
      code: 'invalid_request',
    },
    {
      label: `a body shorter than its Content-Length, not finished within ${REQUEST_TIMEOUT_MS} ms`,
      request: () =>
        head('POST /api/v1/agent-runs HTTP/1.1', [`Authorization: Bearer ${tenant.key}`, 'Content-Type: application/json', 'Content-Length: 100']) +
        '{"org_id"',
      status: 408,
      code: 'request_timeout',
    },
    { label: 'a head that never ends', request: () => 'GET /healthz HTTP/1.1\r\nHost: pylon\r\n', status: 408, code: 'request_timeout' },
    {
      label: 'two Authorization headers (Node would keep the first and drop the other)',
      request: () => head('GET /api/v1/agent-runs HTTP/1.1', [`Authorization: Bearer ${tenant.key}`, 'Authorization: Bearer pyl_someone_else']),
      status: 400,
      code: 'invalid_request',
    },
  ];

  for (const { label, request, status, code, headers } of cases) {
    it(`${label} → ${status} ${code}`, async () => {
      const response = await sendRaw(stack.url, request());
      assert.equal(response.status, status, JSON.stringify(response));
      assert.equal(response.body, JSON.stringify({ error: code }));
      assert.match(response.headers['content-type'] ?? '', /^application\/json/);
      assert.equal(Number(response.headers['content-length']), Buffer.byteLength(response.body));
      assert.ok(codes.has(code), `${code} is listed in docs/api.md`);
      for (const [name, value] of Object.entries(headers ?? {})) assert.equal(response.headers[name], value, name);
    });
  }

  it('bytes that are not UTF-8 inside a JSON string → 400 invalid_request, nothing stored as U+FFFD', async () => {
    const http = new Http(stack.url);
    const body = Buffer.concat([
      Buffer.from(`{"org_id":"${tenant.orgId}","agent_version_id":"${tenant.versionId}","input":"caf`),
      Buffer.from([0xe9]),
      Buffer.from('"}'),
    ]);
    const response = await http.post('/api/v1/agent-runs', { token: tenant.key, rawBody: body, headers: { 'content-type': 'application/json' } });
    assert.equal(response.status, 400, response.text);
    assert.deepEqual(response.body, { error: 'invalid_request' });
    assert.equal(response.headers.get('error-detail'), 'the body is not valid UTF-8');
  });

  it('a JSON object that repeats a key → 400 invalid_request, whichever value comes last', async () => {
    const http = new Http(stack.url);
    const foreignOrg = '00000000-0000-4000-8000-000000000000';
    const requests: Array<[path: string, rawBody: string]> = [
      ['/api/v1/agent-runs', `{"org_id":"${foreignOrg}","agent_version_id":"${tenant.versionId}","input":"hi","org_id":"${tenant.orgId}"}`],
      ['/api/v1/agent-runs', `{"org_id":"${tenant.orgId}","agent_version_id":"${tenant.versionId}","input":"hi","input":"hi"}`],
      ['/api/v1/knowledge/documents', `{"org_id":"${tenant.orgId}","title":"t","content":"c","metadata":{"a":1,"\\u0061":2}}`],
    ];
    for (const [path, rawBody] of requests) {
      const response = await http.post(path, { token: tenant.key, rawBody, headers: { 'content-type': 'application/json' } });
      assert.equal(response.status, 400, `${rawBody}: ${response.text}`);
      assert.deepEqual(response.body, { error: 'invalid_request' });
      assert.match(response.headers.get('error-detail') ?? '', /^the body repeats the key "(org_id|input|a)" in one object/);
    }
    const sameKeyInTwoObjects = `{"org_id":"${tenant.orgId}","title":"t","content":"c","metadata":{"org_id":"x","title":"y"}}`;
    const accepted = await http.post('/api/v1/knowledge/documents', {
      token: tenant.key,
      rawBody: sameKeyInTwoObjects,
      headers: { 'content-type': 'application/json' },
    });
    assert.equal(accepted.status, 202, `one key in two different objects is no repeat: ${accepted.text}`);
  });

  it('a query parameter the operation does not take → 400, prototype names and operations without parameters included', async () => {
    const http = new Http(stack.url);
    const refused: Array<[path: string, detail: string]> = [
      ['/api/v1/agent-runs?__proto__[x]=1', 'query parameter "__proto__" is not taken by this operation'],
      ['/api/v1/agent-runs?limit=1&constructor[prototype]=1', 'query parameter "constructor" is not taken by this operation'],
      ['/api/v1/agent-runs?foo=1', 'foo: property foo should not exist'],
      ['/api/v1/tokens/balance?__proto__=1', 'query parameter "__proto__" is not taken by this operation'],
      [`/api/v1/agent-runs/${tenant.orgId}?expand=all`, 'this operation takes no query parameters (got "expand")'],
      ['/api/v1/whoami?x', 'this operation takes no query parameters (got "x")'],
    ];
    for (const [path, detail] of refused) {
      const response = await http.get(path, { token: tenant.key });
      assert.equal(response.status, 400, `${path}: ${response.text}`);
      assert.deepEqual(response.body, { error: 'invalid_request' });
      assert.equal(response.headers.get('error-detail'), detail, path);
    }
    assert.equal((await http.get(`/api/v1/agent-runs/${tenant.orgId}?expand=all`)).status, 401, 'the key first');
    assert.equal((await http.get('/api/v1/agent-runs?limit=1&status=queued', { token: tenant.key })).status, 200);
    assert.equal((await http.get(`/v1/video-gen/generation?ids[0]=${tenant.orgId}`, { token: tenant.key })).status, 200);
  });

  it('a command that takes no body refuses one: 400, after the key is checked', async () => {
    const http = new Http(stack.url);
    const run = await http.post('/api/v1/agent-runs', {
      token: tenant.key,
      body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: 'hi' },
    });
    assert.equal(run.status, 200, run.text);
    const cancelPath = `/api/v1/agent-runs/${run.body.run_id}/cancel`;
    for (const [body, contentType] of [
      ['{"reason": "x"}', 'application/json'],
      ['anything', 'text/plain'],
      ['{}', 'application/json'],
    ]) {
      const refused = await http.post(cancelPath, { token: tenant.key, rawBody: body, headers: { 'content-type': contentType! } });
      assert.equal(refused.status, 400, `${contentType} ${body}: ${refused.text}`);
      assert.equal(refused.headers.get('error-detail'), 'this request takes no body');
    }
    assert.equal((await http.post(cancelPath, { rawBody: '{}', headers: { 'content-type': 'application/json' } })).status, 401, 'the key first');
    assert.equal((await http.post(cancelPath, { token: tenant.key })).status, 202, 'without a body it is the command it was');
  });

  it('the server still answers normally afterwards, on the same process', async () => {
    const http = new Http(stack.url);
    assert.ok(stack.api.running);
    assert.equal((await http.get('/healthz')).status, 200);
    assert.equal((await http.get('/api/v1/agent-runs?limit=1', { token: tenant.key })).status, 200);
  });
});

describe('a request that reaches the API while it shuts down', () => {
  it('→ 503 service_unavailable, and the connection closes', async () => {
    const stack = await Stack.start({ worker: false });
    try {
      const connection = openRaw(stack.url);
      await connection.connected;
      // An unfinished head makes the connection busy, so closing the server does not drop it as idle.
      connection.socket.write('GET /healthz HTTP/1.1\r\nHost: pylon\r\n');
      stack.api.child.kill('SIGTERM');
      await untilRefused(stack.url);
      connection.socket.write('\r\n');
      const response = await connection.response;
      assert.equal(response.status, 503, JSON.stringify(response));
      assert.equal(response.body, JSON.stringify({ error: 'service_unavailable' }));
      assert.equal(response.headers.connection, 'close');
      assert.ok(documentedCodes().has('service_unavailable'));
    } finally {
      await stack.stop();
    }
  });
});
