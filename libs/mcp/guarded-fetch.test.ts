import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { PrivateTargets, RefusedUrlError } from '@pylon/webhooks';
import { guardedFetch } from './guarded-fetch';

describe('guardedFetch (the MCP client under the private-target policy)', () => {
  let server: Server;
  let port: number;
  const seen: string[] = [];

  before(async () => {
    server = createServer(async (request, response) => {
      let body = '';
      for await (const chunk of request) body += chunk;
      seen.push(`${request.method} ${request.headers.authorization ?? ''} ${body}`);
      if (request.url === '/stream') {
        response.writeHead(200, { 'content-type': 'text/event-stream' });
        response.write('data: one\n\n');
        setTimeout(() => response.end('data: two\n\n'), 20);
        return;
      }
      response.writeHead(201, { 'content-type': 'application/json', 'x-extra': 'yes' }).end('{"ok":true}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('refuses loopback by default, before any connection', async () => {
    const fetch = guardedFetch(PrivateTargets.NONE);
    await assert.rejects(fetch(`http://127.0.0.1:${port}/`), RefusedUrlError);
    await assert.rejects(fetch(`http://[::1]:${port}/`), RefusedUrlError);
    assert.equal(seen.length, 0);
  });

  it('refuses a name that resolves to a refused address (checked after DNS, on the connection)', async () => {
    const fetch = guardedFetch(PrivateTargets.NONE);
    await assert.rejects(fetch(`http://localhost:${port}/`), /non-public address/);
    assert.equal(seen.length, 0);
  });

  it('never reaches metadata addresses, whatever the setting allows', async () => {
    const everything = guardedFetch(PrivateTargets.parse(['0.0.0.0/0', '::/0', '169.254.0.0/16', 'fd00:ec2::/32']));
    for (const url of [
      'http://169.254.169.254/latest/meta-data/',
      'http://169.254.170.2/v2/credentials',
      'http://[fd00:ec2::254]/',
      'http://[::ffff:169.254.169.254]/',
    ]) {
      await assert.rejects(everything(url), RefusedUrlError, url);
    }
    assert.equal(PrivateTargets.parse(['169.254.169.254']).allows('169.254.169.254'), false);
    assert.equal(PrivateTargets.parse(['100.64.0.0/10']).allows('100.100.100.200'), false);
  });

  it('refuses other schemes', async () => {
    await assert.rejects(guardedFetch(PrivateTargets.NONE)('file:///etc/passwd'), /not http or https/);
  });

  it('an allowed target: sends method, headers and body; answers status, headers and a streamed body', async () => {
    const fetch = guardedFetch(PrivateTargets.parse(['127.0.0.1']));
    const response = await fetch(`http://127.0.0.1:${port}/json`, { method: 'POST', headers: { Authorization: 'Bearer t' }, body: '{"a":1}' });
    assert.equal(response.status, 201);
    assert.equal(response.headers.get('x-extra'), 'yes');
    assert.deepEqual(await response.json(), { ok: true });
    assert.equal(seen.at(-1), 'POST Bearer t {"a":1}');
    const stream = await fetch(`http://127.0.0.1:${port}/stream`);
    assert.equal(await stream.text(), 'data: one\n\ndata: two\n\n');
  });
});
