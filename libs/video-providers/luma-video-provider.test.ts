import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { FakeLuma } from '../../test/support/fake-luma';
import { lumaNominalSize } from './luma-nominal-size';
import { LumaVideoProvider } from './luma-video-provider';
import type { VideoRequest } from './video-provider';
import { VideoProviderRejectedError, VideoProviderTransientError } from './video-provider-errors';

const PARENT_LUMA_ID = '9d1e4f7a-3c2b-4e8d-a6f0-1b2c3d4e5f60';

function request(overrides: Partial<VideoRequest> = {}): VideoRequest {
  return {
    generationId: 'gen-1',
    prompt: 'A lighthouse on a cliff at dusk, waves crashing below',
    aspectRatio: '16:9',
    expandPrompt: true,
    ...overrides,
  };
}

describe('LumaVideoProvider', () => {
  let fake: FakeLuma;
  const provider = (timeoutMs = 5_000): LumaVideoProvider => new LumaVideoProvider({ apiKey: 'luma-test-key', baseUrl: fake.baseUrl, timeoutMs });

  before(async () => {
    fake = await FakeLuma.start();
  });
  after(async () => {
    await fake.stop();
  });
  beforeEach(() => fake.reset());

  describe('submit', () => {
    it('posts a text-only generation with the Bearer key and returns the generation id as the job id', async () => {
      fake.enqueue({ status: 201, fixture: 'create-queued' });
      const job = await provider().submit(request());
      assert.deepEqual(job, { jobId: '5f8c1c3e-2b6a-4d61-9a3e-7d2f1b0c4a11' });
      assert.equal(fake.requests.length, 1);
      const sent = fake.requests[0]!;
      assert.equal(sent.method, 'POST');
      assert.equal(sent.path, '/generations');
      assert.equal(sent.authorization, 'Bearer luma-test-key');
      assert.equal(sent.contentType, 'application/json');
      // expandPrompt has no field in the Dream Machine API: nothing is sent for it.
      assert.deepEqual(sent.body, {
        prompt: 'A lighthouse on a cliff at dusk, waves crashing below',
        model: 'ray-2',
        aspect_ratio: '16:9',
        resolution: '720p',
        loop: false,
      });
    });

    it('sends start and end images as image keyframes', async () => {
      fake.enqueue({ status: 201, fixture: 'create-queued' });
      await provider().submit(
        request({ aspectRatio: '9:16', imageUrl: 'https://example.com/start.jpg', imageEndUrl: 'https://example.com/end.png' }),
      );
      assert.deepEqual(fake.requests[0]!.body, {
        prompt: 'A lighthouse on a cliff at dusk, waves crashing below',
        model: 'ray-2',
        aspect_ratio: '9:16',
        resolution: '720p',
        loop: false,
        keyframes: {
          frame0: { type: 'image', url: 'https://example.com/start.jpg' },
          frame1: { type: 'image', url: 'https://example.com/end.png' },
        },
      });
    });

    it("extends a generation with the parent's Luma id as frame0, keeping an end image as frame1", async () => {
      fake.enqueue({ status: 201, fixture: 'create-queued' }, { status: 201, fixture: 'create-queued' });
      const extend = { generationId: 'gen-parent', providerJobId: PARENT_LUMA_ID };
      await provider().submit(request({ prompt: 'The lighthouse beam sweeps the sea', extend }));
      await provider().submit(request({ prompt: 'Night falls', extend, imageEndUrl: 'https://example.com/night.jpg' }));
      assert.deepEqual(fake.requests[0]!.body, {
        prompt: 'The lighthouse beam sweeps the sea',
        model: 'ray-2',
        aspect_ratio: '16:9',
        resolution: '720p',
        loop: false,
        keyframes: { frame0: { type: 'generation', id: PARENT_LUMA_ID } },
      });
      assert.deepEqual((fake.requests[1]!.body as { keyframes: unknown }).keyframes, {
        frame0: { type: 'generation', id: PARENT_LUMA_ID },
        frame1: { type: 'image', url: 'https://example.com/night.jpg' },
      });
    });

    it('rejects an extension with a start image, and an unknown aspect ratio, without calling Luma', async () => {
      const extend = { generationId: 'gen-parent', providerJobId: PARENT_LUMA_ID };
      await assert.rejects(provider().submit(request({ extend, imageUrl: 'https://example.com/a.jpg' })), VideoProviderRejectedError);
      await assert.rejects(provider().submit(request({ aspectRatio: '2:1' as never })), VideoProviderRejectedError);
      assert.equal(fake.requests.length, 0);
    });

    it('an answer without an id is rejected as malformed', async () => {
      fake.enqueue({ status: 201, json: { state: 'queued' } }, { status: 200, text: '<html>gateway</html>' });
      await assert.rejects(provider().submit(request()), /without a generation id/);
      await assert.rejects(provider().submit(request()), (error: unknown) => {
        assert.ok(error instanceof VideoProviderRejectedError);
        assert.match(error.message, /not JSON/);
        return true;
      });
    });
  });

  describe('poll', () => {
    it('GETs the generation by id', async () => {
      fake.enqueue({ status: 200, fixture: 'generation-queued' });
      await provider().poll('5f8c1c3e-2b6a-4d61-9a3e-7d2f1b0c4a11');
      assert.equal(fake.requests[0]!.method, 'GET');
      assert.equal(fake.requests[0]!.path, '/generations/5f8c1c3e-2b6a-4d61-9a3e-7d2f1b0c4a11');
      assert.equal(fake.requests[0]!.authorization, 'Bearer luma-test-key');
    });

    it('queued → pending, dreaming → processing', async () => {
      fake.enqueue({ status: 200, fixture: 'generation-queued' }, { status: 200, fixture: 'generation-dreaming' });
      assert.deepEqual(await provider().poll('id'), { state: 'pending' });
      assert.deepEqual(await provider().poll('id'), { state: 'processing' });
    });

    it('completed → the video, assets.image as thumbnail, and the nominal size of the echoed aspect ratio', async () => {
      fake.enqueue({ status: 200, fixture: 'generation-completed' });
      assert.deepEqual(await provider().poll('id'), {
        state: 'completed',
        result: {
          videoUrl: 'https://storage.cdn-luma.com/dream_machine/5f8c1c3e-2b6a-4d61-9a3e-7d2f1b0c4a11/video_0.mp4',
          thumbnailUrl: 'https://storage.cdn-luma.com/dream_machine/5f8c1c3e-2b6a-4d61-9a3e-7d2f1b0c4a11/video_0_thumb.jpg',
          width: 720,
          height: 1280,
        },
      });
    });

    it('completed with the older assets.thumbnail, and no echoed resolution, uses the configured one', async () => {
      fake.enqueue({ status: 200, fixture: 'generation-completed-thumbnail' });
      const status = await provider().poll('id');
      assert.equal(status.state, 'completed');
      assert.equal(
        status.state === 'completed' && status.result.thumbnailUrl,
        'https://storage.cdn-luma.com/dream_machine/0b7d6a52-91e4-4c3b-8f0e-2a4c9e7d5b33/thumbnail.jpg',
      );
      assert.deepEqual(status.state === 'completed' && [status.result.width, status.result.height], [1680, 720]);
    });

    it('completed without a video URL is reported failed', async () => {
      fake.enqueue({ status: 200, json: { id: 'id', state: 'completed', assets: {} } });
      assert.deepEqual(await provider().poll('id'), { state: 'failed', reason: 'Luma reported the generation completed but gave no video URL' });
    });

    it('failed → failed with failure_reason', async () => {
      fake.enqueue({ status: 200, fixture: 'generation-failed' }, { status: 200, json: { id: 'id', state: 'failed', failure_reason: null } });
      assert.deepEqual(await provider().poll('id'), { state: 'failed', reason: 'Prompt not allowed because it contains disallowed content' });
      assert.deepEqual(await provider().poll('id'), { state: 'failed', reason: 'Luma reported the generation failed without a reason' });
    });

    it('an unknown state is rejected as malformed', async () => {
      fake.enqueue({ status: 200, json: { id: 'id', state: 'teleporting' } });
      await assert.rejects(
        provider().poll('id'),
        (error: unknown) => error instanceof VideoProviderRejectedError && /unknown generation state "teleporting"/.test(error.message),
      );
    });
  });

  describe('errors', () => {
    const rejected: Array<[number, string, RegExp]> = [
      [400, 'error-400', /Luma answered 400 to POST \/generations: frame0 image url is not accessible/],
      [401, 'error-401', /API key \(LUMA_API_KEY\).*401.*Invalid API key is provided/],
      [403, 'error-401', /API key \(LUMA_API_KEY\).*403/],
      [404, 'error-404', /404.*Generation not found/],
      [422, 'error-422', /422.*Input should be '1:1'/],
    ];
    for (const [status, fixture, message] of rejected) {
      it(`${status} is rejected`, async () => {
        fake.enqueue({ status, fixture });
        await assert.rejects(provider().submit(request()), (error: unknown) => {
          assert.ok(error instanceof VideoProviderRejectedError, String(error));
          assert.equal(error.retryable, false);
          assert.match(error.message, message);
          return true;
        });
      });
    }

    for (const [status, fixture] of [
      [408, 'error-500'],
      [409, 'error-500'],
      [429, 'error-429'],
      [500, 'error-500'],
      [503, 'error-500'],
    ] as const) {
      it(`${status} is transient`, async () => {
        fake.enqueue({ status, fixture });
        await assert.rejects(provider().poll('id'), (error: unknown) => {
          assert.ok(error instanceof VideoProviderTransientError, String(error));
          assert.equal(error.retryable, true);
          assert.match(error.message, new RegExp(`Luma answered ${status} to GET /generations/id`));
          return true;
        });
        assert.equal(fake.requests.length, 1, 'no retry of its own');
      });
    }

    it('a non-JSON error page is quoted, clipped', async () => {
      fake.enqueue({ status: 502, text: `<html><body>Bad gateway ${'x'.repeat(1_000)}</body></html>` });
      await assert.rejects(provider().poll('id'), (error: unknown) => {
        assert.ok(error instanceof VideoProviderTransientError);
        assert.match(error.message, /502.*<html><body>Bad gateway x+…$/);
        assert.ok(error.message.length < 400);
        return true;
      });
    });

    it('a timeout is transient', async () => {
      fake.enqueue({ status: 200, fixture: 'generation-queued', delayMs: 1_000 });
      const started = Date.now();
      await assert.rejects(provider(150).poll('id'), (error: unknown) => {
        assert.ok(error instanceof VideoProviderTransientError, String(error));
        assert.match(error.message, /timed out after 150 ms/);
        return true;
      });
      assert.ok(Date.now() - started < 900);
    });

    it('an unreachable server is transient', async () => {
      const unreachable = new LumaVideoProvider({ apiKey: 'k', baseUrl: 'http://127.0.0.1:1/dream-machine/v1', timeoutMs: 2_000 });
      await assert.rejects(unreachable.submit(request()), (error: unknown) => {
        assert.ok(error instanceof VideoProviderTransientError, String(error));
        assert.match(error.message, /could not be reached/);
        return true;
      });
    });
  });

  it('nominal sizes: the short side is the resolution, the long side follows the ratio', () => {
    assert.deepEqual(lumaNominalSize('16:9', '720p'), { width: 1280, height: 720 });
    assert.deepEqual(lumaNominalSize('9:16', '1080p'), { width: 1080, height: 1920 });
    assert.deepEqual(lumaNominalSize('1:1', '540p'), { width: 540, height: 540 });
    assert.deepEqual(lumaNominalSize('4:3', '720p'), { width: 960, height: 720 });
    assert.deepEqual(lumaNominalSize('9:21', '720p'), { width: 720, height: 1680 });
  });

  describe('cancel', () => {
    it('deletes the generation at Luma (204, no body)', async () => {
      fake.enqueue({ status: 204, text: '' });
      await provider().cancel('5f8c1c3e-2b6a-4d61-9a3e-7d2f1b0c4a11');
      assert.equal(fake.requests[0]!.method, 'DELETE');
      assert.equal(fake.requests[0]!.path, '/generations/5f8c1c3e-2b6a-4d61-9a3e-7d2f1b0c4a11');
      assert.equal(fake.requests[0]!.authorization, 'Bearer luma-test-key');
    });

    it('a generation Luma no longer knows is already gone; a refusal or an outage is an error', async () => {
      fake.enqueue({ status: 404, json: { detail: 'Generation not found' } });
      await provider().cancel('5f8c1c3e-2b6a-4d61-9a3e-7d2f1b0c4a11');
      fake.enqueue({ status: 403, json: { detail: 'Forbidden' } });
      await assert.rejects(provider().cancel('5f8c1c3e-2b6a-4d61-9a3e-7d2f1b0c4a11'), VideoProviderRejectedError);
      fake.enqueue({ status: 503, json: { detail: 'busy' } });
      await assert.rejects(provider().cancel('5f8c1c3e-2b6a-4d61-9a3e-7d2f1b0c4a11'), VideoProviderTransientError);
    });
  });
});
