import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createKey, createTenant, type Tenant } from '../support/tenant';
import { until } from '../support/wait';

/** A live event stream of a run, open until `close()`; or the refusal, when the server answered otherwise. */
async function openStream(url: string, token: string) {
  const controller = new AbortController();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' }, signal: controller.signal });
  return {
    response,
    close: async () => {
      controller.abort();
      await response.body?.cancel().catch(() => undefined);
    },
  };
}

describe('live event streams: at most EVENT_STREAMS_PER_KEY open per API key', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let runUrl: string;

  before(async () => {
    // No worker: the run stays queued, so its streams stay open until their clients close them.
    // One API process: the cap is on the streams a process holds open (docs/configuration.md, EVENT_STREAMS_PER_KEY).
    stack = await Stack.start({ worker: false, apiReplicas: 1, env: { EVENT_STREAMS_PER_KEY: '2' } });
    http = new Http(stack.url);
    tenant = await createTenant(http);
    const created = await http.post('/api/v1/agent-runs', {
      token: tenant.key,
      body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: 'wait' },
    });
    assert.equal(created.status, 200, created.text);
    runUrl = `${stack.url}/api/v1/agent-runs/${created.body.run_id}/events`;
  });
  after(async () => stack?.stop());

  it('refuses the third stream of a key with 409 limit_exceeded and the reason, lets another key stream, and admits again once one closed', async () => {
    const first = await openStream(runUrl, tenant.key);
    const second = await openStream(runUrl, tenant.key);
    assert.deepEqual([first.response.status, second.response.status], [200, 200]);
    assert.match(first.response.headers.get('content-type') ?? '', /^text\/event-stream/);

    const third = await openStream(runUrl, tenant.key);
    assert.equal(third.response.status, 409);
    assert.deepEqual(await third.response.json(), { error: 'limit_exceeded' });
    assert.equal(third.response.headers.get('error-detail'), 'this API key has 2 event streams open on this server, its limit is 2; close one first');

    const otherKey = await createKey(http, tenant.orgId, ['runs:read']);
    const other = await openStream(runUrl, otherKey);
    assert.equal(other.response.status, 200, 'the cap is per key');

    const page = await http.get(new URL(runUrl).pathname, { token: tenant.key });
    assert.equal(page.status, 200, 'a JSON page is not a stream and is not counted');

    await first.close();
    const again = await until(
      'a closed stream to free its place',
      async () => {
        const opened = await openStream(runUrl, tenant.key);
        return opened.response.status !== 409 && opened;
      },
      { timeoutMs: 5_000, intervalMs: 50 },
    );
    assert.equal(again.response.status, 200, 'a closed stream frees its place');
    await Promise.all([second.close(), other.close(), again.close()]);
  });
});
