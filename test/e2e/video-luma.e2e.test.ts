import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { sql } from '../support/db';
import { FakeLuma } from '../support/fake-luma';
import { Http } from '../support/http';
import { assertLedgerReconciles, grantTokens } from '../support/ledger';
import { Stack } from '../support/stack';
import { createKey, createOrg } from '../support/tenant';
import { until } from '../support/wait';

const COST = 500_000;

/** The Luma provider end to end, against a local Dream Machine API: completion, provider failure and refusal refund. */
describe('video generation through Luma', () => {
  let luma: FakeLuma;
  let stack: Stack;
  let http: Http;
  let orgId: string;
  let key: string;

  const balance = async () => (await http.get('/api/v1/tokens/balance', { token: key })).body.balance as number;
  const waitForFinal = (id: string) =>
    until(
      `generation ${id} finished`,
      async () => {
        const [generation] = (await http.get(`/v1/video-gen/generation?ids[0]=${id}`, { token: key })).body;
        return (generation.state === 'completed' || generation.state === 'failed') && generation;
      },
      { timeoutMs: 60_000 },
    );

  before(async () => {
    luma = await FakeLuma.start();
    stack = await Stack.start({ env: { VIDEO_PROVIDER: 'luma', LUMA_API_KEY: 'luma-test-key', LUMA_BASE_URL: luma.baseUrl } });
    http = new Http(stack.url);
    orgId = await createOrg(http, 'Luma org');
    await grantTokens(http, orgId, 10 * COST);
    key = await createKey(http, orgId, ['*']);
  });
  afterEach(async () => assertLedgerReconciles([orgId]));
  after(async () => {
    await stack?.stop();
    await luma?.stop();
  });

  it('sends prompt, aspect ratio and keyframes; completes with the provider’s video', async () => {
    const created = await http.post('/v1/video-gen/generations', {
      token: key,
      body: {
        user_prompt: 'a fox in snow',
        aspect_ratio: '4:3',
        image_url: 'https://images.example.test/start.png',
        image_end_url: 'https://images.example.test/end.png',
      },
    });
    assert.equal(created.status, 201, created.text);
    const done = await waitForFinal(created.body.id);
    assert.equal(done.state, 'completed');
    assert.match(done.video.url, /^https:\/\/cdn\.example\.test\/.+\.mp4$/);
    const sent = luma.created[luma.created.length - 1];
    assert.equal(sent.prompt, 'a fox in snow');
    assert.equal(sent.aspect_ratio, '4:3');
    assert.deepEqual(sent.keyframes, {
      frame0: { type: 'image', url: 'https://images.example.test/start.png' },
      frame1: { type: 'image', url: 'https://images.example.test/end.png' },
    });
    const extension = await http.post(`/v1/video-gen/generations/${created.body.id}/extend`, { token: key, body: { user_prompt: 'the fox runs' } });
    assert.equal(extension.status, 201);
    await waitForFinal(extension.body.id);
    assert.equal(luma.created[luma.created.length - 1].keyframes.frame0.type, 'generation');
  });

  it('a provider failure ends failed, with the tokens back exactly once', async () => {
    const before = await balance();
    const created = await http.post('/v1/video-gen/generations', { token: key, body: { user_prompt: 'please FAIL' } });
    assert.equal(created.status, 201);
    assert.equal(await balance(), before - COST);
    const done = await waitForFinal(created.body.id);
    assert.equal(done.state, 'failed');
    assert.equal(done.video, null);
    assert.equal(await balance(), before);
    const entries = await sql<{ kind: string }>(`SELECT kind FROM token_entries WHERE reference_id = $1 ORDER BY created_at`, [created.body.id]);
    assert.deepEqual(
      entries.map((entry) => entry.kind),
      ['debit', 'refund'],
    );
    const events = await sql<{ type: string }>(`SELECT type FROM events WHERE resource_id = $1`, [created.body.id]);
    assert.deepEqual(
      events.map((event) => event.type),
      ['video_generation.failed'],
    );
  });

  it('a request the provider refuses ends failed and refunded', async () => {
    const before = await balance();
    const created = await http.post('/v1/video-gen/generations', { token: key, body: { user_prompt: 'REJECT me' } });
    assert.equal(created.status, 201);
    const done = await waitForFinal(created.body.id);
    assert.equal(done.state, 'failed');
    assert.equal(await balance(), before);
  });
});
