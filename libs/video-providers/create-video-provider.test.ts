import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createVideoProvider, type VideoProviderSettings } from './create-video-provider';
import { LocalVideoRenderer } from './local-video-renderer';
import { LumaVideoProvider } from './luma-video-provider';
import { VideoProviderUnavailableError } from './video-provider-errors';

const base: VideoProviderSettings = { provider: 'local', mediaDir: '/tmp/pylon-media-unused', localRenderSeconds: 3, timeoutMs: 30_000 };

describe('createVideoProvider', () => {
  it('picks the local renderer by default settings', () => {
    const provider = createVideoProvider(base);
    assert.ok(provider instanceof LocalVideoRenderer);
    assert.equal(provider.name, 'local');
  });

  it('picks Luma when it has a key', () => {
    const provider = createVideoProvider({ ...base, provider: 'luma', lumaApiKey: 'luma-key', lumaBaseUrl: 'http://127.0.0.1:9/v1' });
    assert.ok(provider instanceof LumaVideoProvider);
    assert.equal(provider.name, 'luma');
  });

  it('without LUMA_API_KEY, starts but every call fails as unavailable, and logs why', async () => {
    const lines: string[] = [];
    const provider = createVideoProvider({ ...base, provider: 'luma' }, (line) => lines.push(line));
    assert.equal(provider.name, 'luma');
    assert.equal(lines.length, 1);
    assert.match(lines[0]!, /LUMA_API_KEY is not set/);
    for (const call of [
      () => provider.submit({ generationId: 'g', prompt: 'p', aspectRatio: '1:1', expandPrompt: false }),
      () => provider.poll('x'),
    ]) {
      await assert.rejects(call(), (error: unknown) => {
        assert.ok(error instanceof VideoProviderUnavailableError);
        assert.equal(error.retryable, false);
        assert.match(error.message, /LUMA_API_KEY is not set.*VIDEO_PROVIDER=local/);
        return true;
      });
    }
  });
});
