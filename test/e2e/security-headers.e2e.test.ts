import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import { Http, type HttpResponse } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { createTenant, type Tenant } from '../support/tenant';

const CHROMIUM = process.env.CHROMIUM_PATH || '/usr/bin/chromium';

/** What a browser or a proxy may keep, sniff or frame, by where a response comes from. */
describe('security headers', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let browser: Browser;

  before(async () => {
    assert.ok(existsSync(CHROMIUM), `no Chromium at ${CHROMIUM}: install Debian's chromium (.ci/run does) or set CHROMIUM_PATH`);
    [stack, browser] = await Promise.all([
      Stack.start({ env: { WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback' } }),
      chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
    ]);
    http = new Http(stack.url);
    tenant = await createTenant(http);
  });
  after(async () => {
    await browser?.close();
    await stack?.stop();
  });

  const noStore = (response: HttpResponse, what: string) => {
    assert.equal(response.headers.get('cache-control'), 'no-store', what);
    assert.equal(response.headers.get('x-content-type-options'), 'nosniff', what);
  };

  it('every answer that carries a secret, and every other API answer, is no-store and nosniff', async () => {
    const admin = testInfra().adminToken;
    const issued = await http.post(`/admin/v1/orgs/${tenant.orgId}/api-keys`, { token: admin, body: { name: 'secret', scopes: ['*'] } });
    assert.equal(issued.status, 201, issued.text);
    noStore(issued, 'an admin-issued key');
    const rolled = await http.post(`/admin/v1/api-keys/${issued.body.key_id}/roll`, { token: admin, body: {} });
    noStore(rolled, 'an admin-rolled key');
    const own = await http.post('/api/v1/api-keys', { token: tenant.key, body: { name: 'own', scopes: ['runs:read'] } });
    assert.equal(own.status, 201, own.text);
    noStore(own, "an organisation's new key");
    noStore(await http.post(`/api/v1/api-keys/${own.body.key_id}/roll`, { token: tenant.key, body: {} }), "an organisation's rolled key");
    const endpoint = await http.post('/api/v1/webhook-endpoints', {
      token: tenant.key,
      body: { org_id: tenant.orgId, url: 'http://127.0.0.1:9/hook' },
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    assert.match(endpoint.body.secret, /^whsec_/);
    noStore(endpoint, 'a webhook endpoint with its secret');
    noStore(
      await http.post(`/api/v1/webhook-endpoints/${endpoint.body.endpoint_id}/rotate-secret`, { token: tenant.key, body: {} }),
      'a rotated secret',
    );
    noStore(await http.get('/api/v1/agent-runs', { token: tenant.key }), 'a list');
    noStore(await http.get('/api/v1/agent-runs'), 'an error');
  });

  it('the API docs page has a strict CSP, cannot be framed, and still renders every operation in a browser', async () => {
    const docs = await http.get('/docs');
    assert.equal(docs.status, 200);
    assert.match(docs.headers.get('content-security-policy') ?? '', /default-src 'self'.*frame-ancestors 'none'/);
    assert.equal(docs.headers.get('x-frame-options'), 'DENY');
    assert.equal(docs.headers.get('x-content-type-options'), 'nosniff');

    const page = await browser.newPage();
    const violations: string[] = [];
    await page.exposeFunction('reportViolation', (what: string) => violations.push(what));
    await page.addInitScript({
      content:
        "document.addEventListener('securitypolicyviolation', (event) => window.reportViolation(event.violatedDirective + ' ' + event.blockedURI));",
    });
    await page.goto(`${stack.url}/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    assert.ok((await page.locator('.opblock').count()) > 40, 'the operations are listed');
    assert.deepEqual(violations, []);
    await page.close();
  });
});
