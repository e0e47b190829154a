import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { installedFfmpegPath } from './ffmpeg-binary';
import { probeVideo, type VideoProbe } from './ffmpeg-probe';
import { LocalVideoRenderer, type LocalVideoRendererOptions } from './local-video-renderer';
import type { VideoRequest, VideoResult } from './video-provider';
import { VideoProviderRejectedError, VideoProviderTransientError, VideoProviderUnavailableError } from './video-provider-errors';

const ffmpeg = installedFfmpegPath();

function request(generationId: string, overrides: Partial<VideoRequest> = {}): VideoRequest {
  return { generationId, prompt: 'A paper boat on a rainy street', aspectRatio: '16:9', expandPrompt: false, ...overrides };
}

/** The processes whose command line matches this pattern (pgrep -f: a regular expression), e.g. a render's work directory. */
function processesNaming(text: string): string[] {
  try {
    return execFileSync('pgrep', ['-f', text], { encoding: 'utf8' }).trim().split('\n').filter(Boolean);
  } catch {
    return []; // pgrep exits 1 when nothing matches
  }
}

describe('LocalVideoRenderer', () => {
  let root: string;
  let mediaDir: string;
  const renderer = (options: Partial<LocalVideoRendererOptions> = {}) => new LocalVideoRenderer({ mediaDir, renderSeconds: 1, ...options });
  const inRenders = () => readdirSync(join(mediaDir, 'renders'));

  /** Checks a finished video's files: an H.264 yuv420p MP4 with moov before mdat, and a JPEG of the same size, under an unguessable name. */
  function checkOutput(id: string, result: VideoResult, size: { width: number; height: number }, seconds: number): Promise<VideoProbe> {
    const name = result.videoFile!.slice('videos/'.length, -'.mp4'.length);
    assert.match(name, new RegExp(`^${id}-[0-9a-f]{32}$`), 'the id and 128 random bits: a URL cannot be derived from the id');
    assert.deepEqual(result, {
      videoUrl: `/media/videos/${name}.mp4`,
      thumbnailUrl: `/media/thumbnails/${name}.jpg`,
      ...size,
      videoFile: `videos/${name}.mp4`,
      thumbnailFile: `thumbnails/${name}.jpg`,
    });
    const videoFile = join(mediaDir, result.videoFile!);
    const bytes = readFileSync(videoFile);
    assert.ok(bytes.indexOf('moov') > 0 && bytes.indexOf('moov') < bytes.indexOf('mdat'), '+faststart puts moov before mdat');
    assert.deepEqual([...readFileSync(join(mediaDir, result.thumbnailFile!)).subarray(0, 3)], [0xff, 0xd8, 0xff], 'a JPEG');
    return probeVideo(ffmpeg, videoFile).then((video) => {
      assert.equal(video.codec, 'h264');
      assert.equal(video.pixelFormat, 'yuv420p');
      assert.deepEqual({ width: video.width, height: video.height }, size);
      assert.ok(Math.abs(video.durationSeconds - seconds) <= 0.25, `duration ${video.durationSeconds}, expected about ${seconds}`);
      return video;
    });
  }

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'pylon-video-'));
    // Quotes, a colon, brackets, a comma, a semicolon and a space: file names go through filtergraph escaping.
    mediaDir = join(root, "media it's: [a], b; c");
  });
  after(() => {
    if (!process.env.KEEP_VIDEO_TEST_FILES) rmSync(root, { recursive: true, force: true });
  });

  let wide: VideoResult;

  it('renders 16:9 and 9:16 at their sizes (H.264 MP4 with +faststart, JPEG thumbnail), reporting progress, leaving no work files', async () => {
    const estimates: number[] = [];
    wide = await renderer({ renderSeconds: 2 }).render(request('wide'), { onProgress: (seconds) => estimates.push(seconds) });
    await checkOutput('wide', wide, { width: 640, height: 360 }, 2);
    assert.ok(estimates.length >= 1 && estimates.every((seconds) => seconds >= 1), `estimates ${estimates.join(', ')}`);
    const tall = await renderer({ renderSeconds: 2 }).render(request('tall', { aspectRatio: '9:16' }));
    await checkOutput('tall', tall, { width: 360, height: 640 }, 2);
    assert.deepEqual(inRenders(), []);
  });

  it('renders a prompt full of quotes, colons, backslashes, percent signs, brackets and newlines', async () => {
    const prompt = [
      `He said: "it's 100% fine" \\ C:\\temp\\x; [a],[b] {c} $HOME \`id\` %{pts} %{localtime} %%`,
      'line two: \'single\' "double" \\n not a newline\r\nline three\ttabbed',
      '',
      `ünïcödé — 漢字 🎬 ${'long-word-'.repeat(30)}`,
      ...Array.from({ length: 30 }, (_, i) => `overflow line ${i}`),
    ].join('\n');
    await checkOutput('tricky', await renderer().render(request('tricky', { prompt, aspectRatio: '1:1' })), { width: 480, height: 480 }, 1);
  });

  it("extends: the parent's video followed by the new part, at the parent's size whatever the aspect ratio", async () => {
    const parentFile = join(mediaDir, wide.videoFile!); // 640x360, 2 s, from the first test
    const extended = await renderer().render(
      request('wide-more', {
        prompt: 'The boat sails on',
        aspectRatio: '1:1',
        extend: { generationId: 'wide', providerJobId: 'wide', videoFile: parentFile },
      }),
    );
    await checkOutput('wide-more', extended, { width: 640, height: 360 }, 3);
    assert.ok(readFileSync(parentFile).length > 0, 'the parent is left as it was');
  });

  it('an unreadable parent is refused (not worth a retry), with the reason', async () => {
    const corrupt = join(root, 'corrupt.mp4');
    writeFileSync(corrupt, Buffer.from('this is not an mp4 at all, just bytes'.repeat(50)));
    await assert.rejects(
      renderer().render(request('bad-parent', { extend: { generationId: 'x', providerJobId: 'x', videoFile: corrupt } })),
      (error: unknown) =>
        error instanceof VideoProviderRejectedError &&
        /cannot extend bad-parent: the parent video .*corrupt\.mp4 is not a readable video: .*Invalid data found when processing input/.test(
          error.message,
        ),
    );
  });

  it("a failing ffmpeg is a transient error with ffmpeg's last stderr line (the activity's retries decide), leaving no work files", async () => {
    const fake = join(root, 'failing-ffmpeg.sh');
    writeFileSync(fake, '#!/bin/sh\necho "some warning" >&2\necho "Error: simulated encoder failure" >&2\nexit 1\n');
    chmodSync(fake, 0o755);
    await assert.rejects(
      renderer({ ffmpegPath: fake }).render(request('doomed')),
      (error: unknown) =>
        error instanceof VideoProviderTransientError && error.message === 'the local renderer failed; ffmpeg said: Error: simulated encoder failure',
    );
    assert.deepEqual(inRenders(), []);
  });

  it('an abort kills ffmpeg at once and rejects with the abort reason; nothing is published or left behind', async () => {
    const controller = new AbortController();
    const started = Date.now();
    const running: string[][] = [];
    let reports = 0;
    const rendering = renderer({ renderSeconds: 60 }).render(request('cancelled'), {
      signal: controller.signal,
      // The first estimate is a guess made before ffmpeg starts; the next ones are ffmpeg's own progress.
      onProgress: () => {
        if (++reports < 2) return;
        running.push(processesNaming('renders/cancelled-'));
        controller.abort(new Error('cancelled by the test'));
      },
    });
    await assert.rejects(rendering, /cancelled by the test/);
    assert.ok(running[0]!.length > 0, 'ffmpeg was running when the render was aborted');
    assert.ok(Date.now() - started < 10_000, 'a 60 s render stopped early');
    assert.deepEqual(processesNaming('renders/cancelled-'), [], 'ffmpeg is gone');
    assert.deepEqual(inRenders(), []);
    assert.ok(!readdirSync(join(mediaDir, 'videos')).some((file) => file.startsWith('cancelled-')));
  });

  it('removes what an earlier attempt of the same generation left (its worker died mid-render)', async () => {
    const leftover = join(mediaDir, 'renders', 'again-0123456789ab');
    mkdirSync(leftover, { recursive: true });
    writeFileSync(join(leftover, 'video.mp4'), 'half a video');
    await checkOutput('again', await renderer().render(request('again')), { width: 640, height: 360 }, 1);
    assert.deepEqual(inRenders(), []);
  });

  it('refuses ids that cannot name a file, a relative or missing parent path and unknown aspect ratios', async () => {
    const local = renderer();
    await assert.rejects(local.render(request('../escape')), VideoProviderRejectedError);
    await assert.rejects(
      local.render(request('rel', { extend: { generationId: 'p', providerJobId: 'p', videoFile: 'videos/p.mp4' } })),
      /absolute path/,
    );
    await assert.rejects(local.render(request('none', { extend: { generationId: 'p', providerJobId: 'p' } })), /absolute path/);
    await assert.rejects(local.render(request('ratio', { aspectRatio: '2:1' as never })), /aspect ratio "2:1"/);
  });

  it('a missing ffmpeg makes the renderer unavailable, saying where it looked', async () => {
    await assert.rejects(renderer({ ffmpegPath: join(root, 'no-such-ffmpeg') }).render(request('no-ffmpeg')), (error: unknown) => {
      assert.ok(error instanceof VideoProviderUnavailableError, String(error));
      assert.match(error.message, /cannot run ffmpeg at .*no-such-ffmpeg: ENOENT/);
      return true;
    });
    assert.deepEqual(inRenders(), []);
  });
});
