import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Scope } from '@pylon/contracts';
import { sql } from '../support/db';
import { Http } from '../support/http';
import { assertLedgerReconciles, grantTokens } from '../support/ledger';
import { probeVideo } from '../support/probe-video';
import { Stack } from '../support/stack';
import { createKey, createOrg } from '../support/tenant';
import { until } from '../support/wait';

const COST = 500_000;
const GENERATION_FIELDS = ['created_at', 'estimate_wait_seconds', 'id', 'liked', 'prompt', 'state', 'video'];

interface VideoTenant {
  orgId: string;
  key: string;
}

describe('video generation', () => {
  let stack: Stack;
  let http: Http;
  let tenant: VideoTenant;
  const orgs = new Set<string>();

  const newTenant = async (tokens: number, scopes: Scope[] = ['*']): Promise<VideoTenant> => {
    const orgId = await createOrg(http, 'Video org');
    orgs.add(orgId);
    if (tokens > 0) await grantTokens(http, orgId, tokens);
    return { orgId, key: await createKey(http, orgId, scopes) };
  };
  const create = (body: Record<string, unknown>, key = tenant.key, headers: Record<string, string> = {}) =>
    http.post('/v1/video-gen/generations', { token: key, body, headers });
  const getMany = (query: string, key = tenant.key) => http.get(`/v1/video-gen/generation?${query}`, { token: key });
  const balance = async (key: string) => (await http.get('/api/v1/tokens/balance', { token: key })).body.balance as number;
  const expectError = (response: { status: number; body: unknown }, status: number, code: string) => {
    assert.equal(response.status, status, JSON.stringify(response.body));
    assert.deepEqual(response.body, { error: code });
  };
  /** Downloaded videos, probed with ffprobe; removed with the directory when the suite ends. */
  const downloads = mkdtempSync(join(tmpdir(), 'pylon-video-test-'));
  const download = async (url: string) => {
    const file = join(downloads, `${randomUUID()}.mp4`);
    const response = await fetch(url);
    assert.equal(response.status, 200, url);
    writeFileSync(file, Buffer.from(await response.arrayBuffer()));
    return file;
  };
  const waitForState = (id: string, states: string[], key = tenant.key, timeoutMs = 60_000) =>
    until(
      `generation ${id} ${states.join(' or ')}`,
      async () => {
        const [generation] = (await getMany(`ids[0]=${id}`, key)).body;
        return states.includes(generation.state) && generation;
      },
      { timeoutMs },
    );

  before(async () => {
    stack = await Stack.start({ env: { VIDEO_PROVIDER: 'local', LOCAL_RENDER_SECONDS: '1' } });
    http = new Http(stack.url);
    tenant = await newTenant(20 * COST);
  });
  afterEach(async () => assertLedgerReconciles(orgs));
  after(async () => {
    rmSync(downloads, { recursive: true, force: true });
    await stack?.stop();
  });

  it('creates a generation (201, every field of 2.4), charges 500 000, and renders a playable MP4 at the reported size', async () => {
    const before = await balance(tenant.key);
    const created = await create({ user_prompt: 'A red kite over the hills: "wind", 100% joy\\n', aspect_ratio: '9:16' });
    assert.equal(created.status, 201, created.text);
    assert.deepEqual(Object.keys(created.body).sort(), GENERATION_FIELDS);
    assert.ok(['pending', 'processing'].includes(created.body.state));
    assert.equal(created.body.video, null);
    assert.equal(created.body.liked, null);
    assert.equal(created.body.prompt, 'A red kite over the hills: "wind", 100% joy\\n');
    assert.equal(await balance(tenant.key), before - COST);

    const done = await waitForState(created.body.id, ['completed', 'failed']);
    assert.equal(done.state, 'completed', JSON.stringify(done));
    assert.equal(done.estimate_wait_seconds, null);
    assert.deepEqual(Object.keys(done.video).sort(), ['height', 'thumbnail', 'url', 'width']);
    assert.deepEqual([done.video.width, done.video.height], [360, 640]);
    const probe = probeVideo(await download(done.video.url));
    assert.equal(probe.codec, 'h264');
    assert.deepEqual([probe.width, probe.height], [done.video.width, done.video.height]);
    assert.ok(probe.durationSeconds >= 0.5, `duration ${probe.durationSeconds}`);
    const thumbnail = await fetch(done.video.thumbnail);
    assert.equal(thumbnail.status, 200);
    assert.equal(thumbnail.headers.get('content-type'), 'image/jpeg');
    const events = await sql<{ type: string; data: unknown }>(`SELECT type, data FROM events WHERE resource_id = $1`, [created.body.id]);
    assert.deepEqual(
      events.map((event) => event.type),
      ['video_generation.completed'],
    );
    assert.deepEqual(events[0]!.data, done);
  });

  it('media: only finished files are served, under names that cannot be derived from the generation id, and nothing is listed', async () => {
    const created = await create({ user_prompt: 'A private prompt about a secret launch', aspect_ratio: '1:1' });
    assert.equal(created.status, 201, created.text);
    const done = await waitForState(created.body.id, ['completed', 'failed']);
    assert.equal(done.state, 'completed', JSON.stringify(done));
    const id = created.body.id as string;
    const videoPath = new URL(done.video.url).pathname;
    assert.match(videoPath, new RegExp(`^/media/videos/${id}-[0-9a-f]{32}\\.mp4$`));
    assert.match(new URL(done.video.thumbnail).pathname, new RegExp(`^/media/thumbnails/${id}-[0-9a-f]{32}\\.jpg$`));
    const served = await fetch(done.video.url);
    assert.equal(served.status, 200);
    assert.equal(served.headers.get('cache-control'), 'private, max-age=86400', 'a capability URL: no shared cache keeps it');
    assert.equal(served.headers.get('x-content-type-options'), 'nosniff');

    const notServed = [
      `/media/renders/`, // the renderer's work under way, with the prompt
      `/media/renders/${id}/prompt.txt`,
      `/media/videos/${id}.mp4`, // the id alone does not name the file
      `/media/thumbnails/${id}.jpg`,
      '/media/videos/',
      '/media/thumbnails/',
      '/media/',
      '/media/videos/..%2Frenders%2F',
      '/media/videos/%2e%2e/renders/',
    ];
    for (const path of notServed) {
      const response = await fetch(`${stack.url}${path}`);
      const text = await response.text();
      assert.ok(response.status === 404 || response.status === 403, `${path}: ${response.status} ${text}`);
      assert.ok(!text.includes('secret launch') && !text.includes(id), `${path} must not show the job: ${text.slice(0, 200)}`);
    }
  });

  it('defaults to 16:9 and accepts every aspect ratio', async () => {
    const created = await create({ user_prompt: 'default ratio' });
    assert.equal(created.status, 201);
    const done = await waitForState(created.body.id, ['completed']);
    assert.deepEqual([done.video.width, done.video.height], [640, 360]);
    for (const ratio of ['1:1', '3:4', '4:3', '9:16', '16:9', '9:21', '21:9']) {
      assert.equal((await create({ user_prompt: `ratio ${ratio}`, aspect_ratio: ratio })).status, 201, ratio);
    }
  });

  describe('request errors', () => {
    const bad: Array<[string, Record<string, unknown>]> = [
      ['no user_prompt', {}],
      ['an empty user_prompt', { user_prompt: '' }],
      ['a blank user_prompt', { user_prompt: '   ' }],
      ['a user_prompt over 2000 characters', { user_prompt: 'x'.repeat(2001) }],
      ['a number user_prompt', { user_prompt: 7 }],
      ['an unknown aspect_ratio', { user_prompt: 'x', aspect_ratio: '2:1' }],
      ['a non-boolean expand_prompt', { user_prompt: 'x', expand_prompt: 'yes' }],
      ['an ftp image_url', { user_prompt: 'x', image_url: 'ftp://example.com/a.png' }],
      ['a relative image_end_url', { user_prompt: 'x', image_end_url: '/a.png' }],
      ['an image_url at the cloud metadata address', { user_prompt: 'x', image_url: 'http://169.254.169.254/latest/meta-data/' }],
      ['an image_url at a private address', { user_prompt: 'x', image_url: 'http://10.0.0.5/a.png' }],
      ['an image_end_url at localhost', { user_prompt: 'x', image_end_url: 'http://localhost:8080/a.png' }],
      ['an image_end_url at IPv6 loopback', { user_prompt: 'x', image_end_url: 'http://[::1]/a.png' }],
      ['an image_url at loopback spelled as one number', { user_prompt: 'x', image_url: 'http://2130706433/a.png' }],
      ['an unknown property', { user_prompt: 'x', duration: 5 }],
    ];
    for (const [label, body] of bad) {
      it(`400 for ${label}, and nothing is charged`, async () => {
        const before = await balance(tenant.key);
        expectError(await create(body), 400, 'invalid_request');
        assert.equal(await balance(tenant.key), before);
      });
    }

    it('401 without a key; 403 without the video scopes', async () => {
      expectError(await http.post('/v1/video-gen/generations', { body: { user_prompt: 'x' } }), 401, 'missing_api_key');
      expectError(await http.get(`/v1/video-gen/generation?ids[0]=${randomUUID()}`), 401, 'missing_api_key');
      const reader = await createKey(http, tenant.orgId, ['video:read']);
      const creator = await createKey(http, tenant.orgId, ['video:create']);
      expectError(await create({ user_prompt: 'x' }, reader), 403, 'insufficient_scope');
      expectError(await getMany(`ids[0]=${randomUUID()}`, creator), 403, 'insufficient_scope');
      expectError(await create({ user_prompt: 'x' }, await createKey(http, tenant.orgId, ['runs:create'])), 403, 'insufficient_scope');
    });

    it('402 insufficient_tokens when the balance is short, and nothing is charged', async () => {
      const poor = await newTenant(COST - 1);
      expectError(await create({ user_prompt: 'too expensive' }, poor.key), 402, 'insufficient_tokens');
      assert.equal(await balance(poor.key), COST - 1);
      const broke = await newTenant(0);
      expectError(await create({ user_prompt: 'no tokens at all' }, broke.key), 402, 'insufficient_tokens');
      assert.equal((await sql(`SELECT 1 FROM video_generations WHERE org_id = $1`, [poor.orgId])).length, 0);
    });
  });

  it('GET by ids: indexed and repeated forms, request order, unknown and foreign ids left out', async () => {
    const [a, b] = [(await create({ user_prompt: 'first' })).body.id, (await create({ user_prompt: 'second' })).body.id];
    const other = await newTenant(COST);
    const foreign = (await create({ user_prompt: 'foreign' }, other.key)).body.id;
    const unknown = randomUUID();
    const indexed = await getMany(`ids[0]=${b}&ids[1]=${unknown}&ids[2]=${a}&ids[3]=${foreign}`);
    assert.equal(indexed.status, 200);
    assert.deepEqual(
      indexed.body.map((g: any) => g.id),
      [b, a],
    );
    for (const generation of indexed.body) assert.deepEqual(Object.keys(generation).sort(), GENERATION_FIELDS);
    assert.deepEqual(
      (await getMany(`ids=${a}&ids=${b}`)).body.map((g: any) => g.id),
      [a, b],
    );
    assert.deepEqual(
      (await getMany(`ids=${a}`)).body.map((g: any) => g.id),
      [a],
    );
    assert.deepEqual((await getMany(`ids[0]=${unknown}`)).body, []);
    assert.deepEqual(
      (await getMany(`ids[0]=${foreign}`, other.key)).body.map((g: any) => g.id),
      [foreign],
    );
  });

  it('GET by ids: malformed, missing or too many ids → 400', async () => {
    for (const query of [
      'ids[0]=nope',
      'ids=123',
      '',
      'id=' + randomUUID(),
      Array.from({ length: 51 }, (_, i) => `ids[${i}]=${randomUUID()}`).join('&'),
      'ids[0][x]=1',
    ]) {
      expectError(await getMany(query), 400, 'invalid_request');
    }
    // Past the query parser's array limit the indices still read as a list, so the reason is the count.
    const tooMany = await getMany(Array.from({ length: 150 }, (_, i) => `ids[${i}]=${randomUUID()}`).join('&'));
    expectError(tooMany, 400, 'invalid_request');
    assert.match(tooMany.headers.get('error-detail') ?? '', /no more than 50/);
  });

  it('extend: only a completed parent of the same org; 404 for unknown or foreign, 409 otherwise; charged 500 000', async () => {
    const parent = (await create({ user_prompt: 'a lighthouse at dawn', aspect_ratio: '1:1' })).body;
    expectError(
      await http.post(`/v1/video-gen/generations/${parent.id}/extend`, { token: tenant.key, body: { user_prompt: 'too early' } }),
      409,
      'generation_not_completed',
    );
    const completed = await waitForState(parent.id, ['completed']);
    expectError(
      await http.post(`/v1/video-gen/generations/${randomUUID()}/extend`, { token: tenant.key, body: { user_prompt: 'x' } }),
      404,
      'not_found',
    );
    expectError(
      await http.post('/v1/video-gen/generations/not-a-uuid/extend', { token: tenant.key, body: { user_prompt: 'x' } }),
      400,
      'invalid_request',
    );
    const other = await newTenant(COST);
    expectError(await http.post(`/v1/video-gen/generations/${parent.id}/extend`, { token: other.key, body: { user_prompt: 'x' } }), 404, 'not_found');
    expectError(
      await http.post(`/v1/video-gen/generations/${parent.id}/extend`, { token: tenant.key, body: { user_prompt: 'x', extra: 1 } }),
      400,
      'invalid_request',
    );

    const before = await balance(tenant.key);
    const extension = await http.post(`/v1/video-gen/generations/${parent.id}/extend`, {
      token: tenant.key,
      body: { user_prompt: 'the sun rises higher' },
    });
    assert.equal(extension.status, 201, extension.text);
    assert.notEqual(extension.body.id, parent.id);
    assert.equal(await balance(tenant.key), before - COST);
    const done = await waitForState(extension.body.id, ['completed', 'failed']);
    assert.equal(done.state, 'completed', JSON.stringify(done));
    assert.deepEqual([done.video.width, done.video.height], [completed.video.width, completed.video.height]);
    const [file, parentFile] = [await download(done.video.url), await download(completed.video.url)];
    assert.ok(probeVideo(file).durationSeconds > probeVideo(parentFile).durationSeconds, 'the extension continues the parent');
  });

  it('Idempotency-Key: the first result again, charged once; another body → 409', async () => {
    const before = await balance(tenant.key);
    const headers = { 'idempotency-key': `video-${randomUUID()}` };
    const first = await create({ user_prompt: 'only once' }, tenant.key, headers);
    const again = await create({ user_prompt: 'only once' }, tenant.key, headers);
    assert.equal(first.status, 201);
    assert.equal(again.status, 201);
    assert.equal(again.body.id, first.body.id);
    assert.equal(await balance(tenant.key), before - COST);
    expectError(await create({ user_prompt: 'something else' }, tenant.key, headers), 409, 'idempotency_key_reused');
    const raceKey = { 'idempotency-key': `race-${randomUUID()}` };
    const racing = await Promise.all(Array.from({ length: 8 }, () => create({ user_prompt: 'race' }, tenant.key, raceKey)));
    assert.deepEqual([...new Set(racing.map((response) => response.status))], [201]);
    assert.equal(new Set(racing.map((response) => response.body.id)).size, 1);
    assert.equal(await balance(tenant.key), before - 2 * COST);
  });

  it('100 concurrent creates against a balance for 10: exactly 10 succeed, 90 get 402, balance 0, 10 debits', async () => {
    const ten = await newTenant(10 * COST);
    const responses = await Promise.all(Array.from({ length: 100 }, (_, i) => create({ user_prompt: `burst ${i}` }, ten.key)));
    const statuses = responses.map((response) => response.status);
    assert.equal(statuses.filter((status) => status === 201).length, 10);
    assert.equal(statuses.filter((status) => status === 402).length, 90);
    for (const response of responses.filter((r) => r.status === 402)) assert.deepEqual(response.body, { error: 'insufficient_tokens' });
    assert.equal(await balance(ten.key), 0);
    const debits = await sql(`SELECT 1 FROM token_entries WHERE org_id = $1 AND kind = 'debit'`, [ten.orgId]);
    assert.equal(debits.length, 10);
    await assertLedgerReconciles([ten.orgId]);
  });

  it('the ledger is visible to tokens:read keys, newest first', async () => {
    const reader = await createKey(http, tenant.orgId, ['tokens:read']);
    const entries = await http.get('/api/v1/tokens/entries?limit=5', { token: reader });
    assert.equal(entries.status, 200);
    assert.equal(entries.body.data.length, 5);
    assert.ok(entries.body.data.every((entry: any) => ['grant', 'debit', 'refund'].includes(entry.kind)));
    expectError(await http.get('/api/v1/tokens/balance', { token: await createKey(http, tenant.orgId, ['video:read']) }), 403, 'insufficient_scope');
  });

  it('a worker killed while it polls: the generation still completes, charged once', async () => {
    const slow = await Stack.start({ env: { VIDEO_PROVIDER: 'local', LOCAL_RENDER_SECONDS: '6' } });
    try {
      const slowHttp = new Http(slow.url);
      const orgId = await createOrg(slowHttp, 'Crash org');
      orgs.add(orgId);
      await grantTokens(slowHttp, orgId, COST);
      const key = await createKey(slowHttp, orgId, ['*']);
      const created = await slowHttp.post('/v1/video-gen/generations', { token: key, body: { user_prompt: 'survives a crash' } });
      assert.equal(created.status, 201);
      const read = async () => (await slowHttp.get(`/v1/video-gen/generation?ids[0]=${created.body.id}`, { token: key })).body[0];
      await until('the generation processing', async () => (await read()).state === 'processing', { timeoutMs: 20_000 });
      // The render goes on without a worker to poll it: the new worker takes seconds to start.
      await slow.worker.kill();
      await slow.startWorker();
      const generation = await until(
        'the generation finished',
        async () => {
          const current = await read();
          return ['completed', 'failed'].includes(current.state) && current;
        },
        { timeoutMs: 60_000, intervalMs: 200 },
      );
      assert.equal(generation.state, 'completed', JSON.stringify(generation));
      const entries = await sql<{ kind: string }>(`SELECT kind FROM token_entries WHERE org_id = $1 ORDER BY created_at`, [orgId]);
      assert.deepEqual(
        entries.map((entry) => entry.kind),
        ['grant', 'debit'],
      );
    } finally {
      await slow.stop();
    }
  });

  it('cancel stops the render (ffmpeg is gone), fails the generation and refunds it exactly once; a second cancel answers the same', async () => {
    const slow = await Stack.start({ env: { VIDEO_PROVIDER: 'local', LOCAL_RENDER_SECONDS: '60' } });
    const renders = (id: string) => {
      try {
        return execFileSync('pgrep', ['-f', id], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
      } catch {
        return []; // pgrep exits 1 when nothing matches
      }
    };
    try {
      const slowHttp = new Http(slow.url);
      const orgId = await createOrg(slowHttp, 'Cancel org');
      orgs.add(orgId);
      await grantTokens(slowHttp, orgId, 2 * COST);
      const key = await createKey(slowHttp, orgId, ['*']);
      const created = await slowHttp.post('/v1/video-gen/generations', { token: key, body: { user_prompt: 'a very long render' } });
      assert.equal(created.status, 201);
      const id = created.body.id as string;
      await until('ffmpeg started', () => renders(id).length > 0, { timeoutMs: 20_000 });
      const balanceBefore = (await slowHttp.get('/api/v1/tokens/balance', { token: key })).body.balance;
      assert.equal(balanceBefore, COST);

      const other = await createKey(slowHttp, await createOrg(slowHttp, 'Other org'), ['*']);
      const foreign = await slowHttp.post(`/v1/video-gen/generations/${id}/cancel`, { token: other });
      assert.equal(foreign.status, 404);
      assert.deepEqual(foreign.body, { error: 'not_found' });

      const cancelled = await slowHttp.post(`/v1/video-gen/generations/${id}/cancel`, { token: key });
      assert.equal(cancelled.status, 202, cancelled.text);
      assert.deepEqual(Object.keys(cancelled.body).sort(), GENERATION_FIELDS);
      const generation = await until(
        'the generation failed',
        async () => {
          const [current] = (await slowHttp.get(`/v1/video-gen/generation?ids[0]=${id}`, { token: key })).body;
          return current.state === 'failed' && current;
        },
        { timeoutMs: 20_000 },
      );
      assert.equal(generation.video, null);
      await until('the render stopped', () => renders(id).length === 0, { timeoutMs: 10_000 }).catch(() => undefined);
      assert.deepEqual(renders(id), [], 'the render was stopped');

      const again = await slowHttp.post(`/v1/video-gen/generations/${id}/cancel`, { token: key });
      assert.equal(again.status, 202);
      assert.deepEqual(again.body, generation);
      assert.equal((await slowHttp.get('/api/v1/tokens/balance', { token: key })).body.balance, 2 * COST, 'refunded');
      const entries = await sql<{ kind: string }>(`SELECT kind FROM token_entries WHERE org_id = $1 ORDER BY created_at`, [orgId]);
      assert.deepEqual(
        entries.map((entry) => entry.kind),
        ['grant', 'debit', 'refund'],
        'refunded exactly once',
      );
      const [failure] = await sql<{ failure_reason: string }>(`SELECT failure_reason FROM video_generations WHERE id = $1`, [id]);
      assert.equal(failure!.failure_reason, 'cancelled');
    } finally {
      await slow.stop();
    }
  });

  it('a completed generation cannot be cancelled: 409 generation_not_cancellable', async () => {
    const created = await create({ user_prompt: 'finishes first' });
    const done = await waitForState(created.body.id, ['completed', 'failed']);
    assert.equal(done.state, 'completed');
    expectError(await http.post(`/v1/video-gen/generations/${created.body.id}/cancel`, { token: tenant.key }), 409, 'generation_not_cancellable');
    expectError(await http.post(`/v1/video-gen/generations/${randomUUID()}/cancel`, { token: tenant.key }), 404, 'not_found');
  });
});
