import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { readFile, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { installedFfmpegPath } from './ffmpeg-binary';
import { probeVideo, type VideoProbe } from './ffmpeg-probe';
import { LocalVideoProvider, type LocalVideoProviderOptions } from './local-video-provider';
import type { RenderLockInfo } from './local-render-lock';
import type { JobStatus, VideoRequest } from './video-provider';
import { VideoProviderRejectedError, VideoProviderUnavailableError } from './video-provider-errors';

const ffmpeg = installedFfmpegPath();
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function request(generationId: string, overrides: Partial<VideoRequest> = {}): VideoRequest {
  return { generationId, prompt: 'A paper boat on a rainy street', aspectRatio: '16:9', expandPrompt: false, ...overrides };
}

/** Polls until the job completes or fails; returns the final status and every state seen. */
async function settle(provider: LocalVideoProvider, jobId: string, timeoutMs = 30_000): Promise<{ status: JobStatus; seen: string[] }> {
  const seen: string[] = [];
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const status = await provider.poll(jobId);
    seen.push(status.state);
    if (status.state === 'completed' || status.state === 'failed') return { status, seen };
    if (status.state === 'processing') assert.ok(status.estimateWaitSeconds === undefined || status.estimateWaitSeconds >= 1);
    if (Date.now() > deadline) throw new Error(`job ${jobId} still ${status.state} after ${timeoutMs} ms`);
    await sleep(100);
  }
}

function completed(status: JobStatus) {
  assert.equal(status.state, 'completed', JSON.stringify(status));
  return (status as Extract<JobStatus, { state: 'completed' }>).result;
}

async function readLock(mediaDir: string, jobId: string): Promise<RenderLockInfo | undefined> {
  try {
    return JSON.parse(await readFile(join(mediaDir, 'jobs', `${jobId}.lock`), 'utf8')) as RenderLockInfo;
  } catch {
    return undefined;
  }
}

async function waitForRenderingLock(mediaDir: string, jobId: string): Promise<RenderLockInfo> {
  for (let i = 0; i < 200; i++) {
    const lock = await readLock(mediaDir, jobId);
    if (lock?.phase === 'rendering') return lock;
    await sleep(25);
  }
  throw new Error(`no rendering lock for ${jobId}`);
}

/** Checks a finished job's files: an H.264 yuv420p MP4 with moov before mdat, and a JPEG of the same size. */
/** A job's media name: its id and 128 random bits, so its URL cannot be derived from the id. */
function mediaName(mediaDir: string, jobId: string): string {
  const name = (JSON.parse(readFileSync(join(mediaDir, 'jobs', `${jobId}.json`), 'utf8')) as { mediaName: string }).mediaName;
  assert.match(name, new RegExp(`^${jobId}-[0-9a-f]{32}$`));
  return name;
}

/** What a finished job answers, with the paths under its media name. */
function servedPaths(mediaDir: string, jobId: string, size: { width: number; height: number }) {
  const name = mediaName(mediaDir, jobId);
  return {
    videoUrl: `/media/videos/${name}.mp4`,
    thumbnailUrl: `/media/thumbnails/${name}.jpg`,
    ...size,
    videoFile: `videos/${name}.mp4`,
    thumbnailFile: `thumbnails/${name}.jpg`,
  };
}

async function checkOutput(mediaDir: string, jobId: string, size: { width: number; height: number }, seconds: number): Promise<VideoProbe> {
  const videoFile = join(mediaDir, 'videos', `${mediaName(mediaDir, jobId)}.mp4`);
  const video = await probeVideo(ffmpeg, videoFile);
  assert.equal(video.codec, 'h264');
  assert.equal(video.pixelFormat, 'yuv420p');
  assert.deepEqual({ width: video.width, height: video.height }, size);
  assert.ok(Math.abs(video.durationSeconds - seconds) <= 0.25, `duration ${video.durationSeconds}, expected about ${seconds}`);
  const bytes = readFileSync(videoFile);
  assert.ok(bytes.indexOf('moov') > 0 && bytes.indexOf('moov') < bytes.indexOf('mdat'), '+faststart puts moov before mdat');

  const thumbnailFile = join(mediaDir, 'thumbnails', `${mediaName(mediaDir, jobId)}.jpg`);
  assert.deepEqual([...readFileSync(thumbnailFile).subarray(0, 3)], [0xff, 0xd8, 0xff], 'a JPEG');
  const thumbnail = await probeVideo(ffmpeg, thumbnailFile);
  assert.equal(thumbnail.codec, 'mjpeg');
  assert.deepEqual({ width: thumbnail.width, height: thumbnail.height }, size);
  return video;
}

describe('LocalVideoProvider', () => {
  let root: string;
  let mediaDir: string;
  const provider = (options: Partial<LocalVideoProviderOptions> = {}) => new LocalVideoProvider({ mediaDir, renderSeconds: 1, ...options });

  before(() => {
    root = mkdtempSync(join(tmpdir(), 'pylon-video-'));
    // Quotes, a colon, brackets, a comma, a semicolon and a space: file names go through filtergraph escaping.
    mediaDir = join(root, "media it's: [a], b; c");
  });
  after(() => {
    if (!process.env.KEEP_VIDEO_TEST_FILES) rmSync(root, { recursive: true, force: true });
  });

  it('renders 16:9 and 9:16 at their sizes: H.264 MP4 with +faststart, JPEG thumbnail, served paths', async () => {
    const local = provider({ renderSeconds: 2 });
    const submitted = await local.submit(request('wide', { aspectRatio: '16:9' }));
    assert.equal(submitted.jobId, 'wide');
    assert.ok((submitted.estimateWaitSeconds ?? 0) >= 1);
    await local.submit(request('tall', { aspectRatio: '9:16' }));

    const wide = await settle(local, 'wide');
    assert.deepEqual(completed(wide.status), servedPaths(mediaDir, 'wide', { width: 640, height: 360 }));
    assert.deepEqual(completed((await settle(local, 'tall')).status), servedPaths(mediaDir, 'tall', { width: 360, height: 640 }));
    await checkOutput(mediaDir, 'wide', { width: 640, height: 360 }, 2);
    await checkOutput(mediaDir, 'tall', { width: 360, height: 640 }, 2);

    // Another worker (a fresh instance) sees the same result; a repeated submit changes nothing.
    assert.deepEqual(await provider().poll('wide'), wide.status);
    assert.deepEqual(await provider().submit(request('wide')), { jobId: 'wide', estimateWaitSeconds: undefined });
    // Nothing is left behind but the job's records.
    assert.deepEqual((await readdir(join(mediaDir, 'jobs'))).sort(), ['tall.json', 'tall.result.json', 'wide.json', 'wide.result.json']);
    assert.deepEqual((await readdir(join(mediaDir, 'videos'))).sort(), [`${mediaName(mediaDir, 'tall')}.mp4`, `${mediaName(mediaDir, 'wide')}.mp4`]);
  });

  it('renders a prompt full of quotes, colons, backslashes, percent signs, brackets and newlines', async () => {
    const prompt = [
      `He said: "it's 100% fine" \\ C:\\temp\\x; [a],[b] {c} $HOME \`id\` %{pts} %{localtime} %%`,
      'line two: \'single\' "double" \\n not a newline\r\nline three\ttabbed',
      '',
      '',
      `ünïcödé — 漢字 🎬 ${'long-word-'.repeat(30)}`,
      ...Array.from({ length: 30 }, (_, i) => `overflow line ${i}`),
    ].join('\n');
    const local = provider();
    await local.submit(request('tricky', { prompt, aspectRatio: '1:1' }));
    completed((await settle(local, 'tricky')).status);
    await checkOutput(mediaDir, 'tricky', { width: 480, height: 480 }, 1);
  });

  it("extends: the parent's video followed by the new part, at the parent's size whatever the aspect ratio", async () => {
    const local = provider({ renderSeconds: 1 });
    const parentFile = join(mediaDir, 'videos', `${mediaName(mediaDir, 'wide')}.mp4`); // 640x360, 2 s, from the first test
    await local.submit(
      request('wide-more', {
        prompt: 'The boat sails on',
        aspectRatio: '1:1',
        extend: { generationId: 'wide', providerJobId: 'wide', videoFile: parentFile },
      }),
    );
    const result = completed((await settle(local, 'wide-more')).status);
    assert.deepEqual([result.width, result.height, result.videoFile], [640, 360, `videos/${mediaName(mediaDir, 'wide-more')}.mp4`]);
    await checkOutput(mediaDir, 'wide-more', { width: 640, height: 360 }, 3);
    assert.ok(readFileSync(parentFile).length > 0, 'the parent is left as it was');
  });

  it('an unreadable parent fails the job with a reason, without retries', async () => {
    const corrupt = join(root, 'corrupt.mp4');
    writeFileSync(corrupt, Buffer.from('this is not an mp4 at all, just bytes'.repeat(50)));
    const local = provider();
    await local.submit(request('bad-parent', { extend: { generationId: 'x', providerJobId: 'x', videoFile: corrupt } }));
    const { status, seen } = await settle(local, 'bad-parent');
    assert.deepEqual(seen, ['failed']);
    assert.equal(status.state, 'failed');
    assert.match(
      (status as { reason: string }).reason,
      /cannot extend bad-parent: the parent video .*corrupt\.mp4 is not a readable video: .*Invalid data found when processing input/,
    );

    // Without videoFile, the parent is this media directory's video of job <providerJobId>: here, there is no such job.
    await local.submit(request('orphan', { extend: { generationId: 'gone', providerJobId: 'gone' } }));
    const orphan = await settle(local, 'orphan');
    assert.match((orphan.status as { reason: string }).reason, /videos\/gone\.mp4 is not a readable video: .*No such file or directory/);
  });

  it("an ffmpeg that fails twice fails the job with ffmpeg's last stderr line", async () => {
    const fake = join(root, 'failing-ffmpeg.sh');
    const runs = join(root, 'failing-runs');
    writeFileSync(fake, `#!/bin/sh\necho run >> '${runs}'\necho "some warning" >&2\necho "Error: simulated encoder failure" >&2\nexit 1\n`);
    chmodSync(fake, 0o755);
    const local = provider({ ffmpegPath: fake });
    await local.submit(request('doomed'));
    const { status, seen } = await settle(local, 'doomed');
    assert.deepEqual(status, { state: 'failed', reason: 'the local renderer failed 2 times; ffmpeg said: Error: simulated encoder failure' });
    assert.ok(seen.includes('processing'));
    assert.equal(readFileSync(runs, 'utf8'), 'run\nrun\n');
    assert.match(readFileSync(join(mediaDir, 'jobs', 'doomed.log'), 'utf8'), /simulated encoder failure/);
    assert.deepEqual(await local.poll('doomed'), status, 'stays failed');
  });

  it('a render whose ffmpeg is killed is redone by the next poll', async () => {
    const local = provider({ renderSeconds: 8 });
    await local.submit(request('killed'));
    const first = await waitForRenderingLock(mediaDir, 'killed');
    process.kill(first.pid, 'SIGKILL');
    await sleep(200);
    const { status } = await settle(local, 'killed');
    completed(status);
    await checkOutput(mediaDir, 'killed', { width: 640, height: 360 }, 8);
    const state = JSON.parse(readFileSync(join(mediaDir, 'jobs', 'killed.state.json'), 'utf8')) as { interruptions: number; failures: number };
    assert.deepEqual([state.interruptions, state.failures], [1, 0]);
  });

  it('a render whose worker crashed is finished by whoever polls next', async () => {
    // A separate worker submits and dies at once (SIGKILL); its detached ffmpeg is left without anyone to finish it.
    const script = `
      const { LocalVideoProvider } = require(${JSON.stringify(join(__dirname, 'local-video-provider.js'))});
      new LocalVideoProvider({ mediaDir: ${JSON.stringify(mediaDir)}, renderSeconds: 2 })
        .submit({ generationId: 'crashed', prompt: 'left behind', aspectRatio: '4:3', expandPrompt: false })
        .then(() => process.kill(process.pid, 'SIGKILL'));`;
    const worker = spawn(process.execPath, ['-e', script], { stdio: 'inherit' });
    const signal = await new Promise((resolve) => worker.on('exit', (_code, signal) => resolve(signal)));
    assert.equal(signal, 'SIGKILL');
    assert.ok(await readLock(mediaDir, 'crashed'), 'the dead worker left its lock');

    const { status } = await settle(provider({ renderSeconds: 99 }), 'crashed');
    // The job keeps the clip length it was submitted with, not the poller's.
    assert.deepEqual([completed(status).width, completed(status).height], [480, 360]);
    await checkOutput(mediaDir, 'crashed', { width: 480, height: 360 }, 2);
    const state = JSON.parse(readFileSync(join(mediaDir, 'jobs', 'crashed.state.json'), 'utf8')) as { interruptions: number };
    assert.equal(state.interruptions, 1, 'the abandoned render was counted once and redone');
  });

  it('a hung render (stale heartbeat) is killed and redone', async () => {
    // The first run hangs without any progress; the next runs are the real ffmpeg.
    const fake = join(root, 'hanging-ffmpeg.sh');
    const marker = join(root, 'hung-once');
    writeFileSync(fake, `#!/bin/sh\nif [ ! -f '${marker}' ]; then touch '${marker}'; sleep 20; exit 0; fi\nexec '${ffmpeg}' "$@"\n`);
    chmodSync(fake, 0o755);
    const local = provider({ ffmpegPath: fake, staleAfterMs: 1_500 });
    await local.submit(request('hung'));
    const hung = await waitForRenderingLock(mediaDir, 'hung');
    const { status } = await settle(local, 'hung');
    completed(status);
    await checkOutput(mediaDir, 'hung', { width: 640, height: 360 }, 1);
    assert.throws(() => process.kill(hung.pid, 0), /ESRCH/, 'the hung process was killed');
  });

  it('rejects ids that cannot name a file, unknown jobs, and bad extension input', async () => {
    const local = provider();
    await assert.rejects(local.submit(request('../escape')), VideoProviderRejectedError);
    await assert.rejects(local.poll('a/b'), VideoProviderRejectedError);
    await assert.rejects(local.poll('never-submitted'), /no local video job never-submitted/);
    await assert.rejects(
      local.submit(request('rel', { extend: { generationId: 'p', providerJobId: 'p', videoFile: 'videos/p.mp4' } })),
      /absolute path/,
    );
    await assert.rejects(local.submit(request('ratio', { aspectRatio: '2:1' as never })), /aspect ratio "2:1"/);
  });

  it('a missing ffmpeg makes the provider unavailable, saying where it looked', async () => {
    const local = provider({ ffmpegPath: join(root, 'no-such-ffmpeg') });
    await assert.rejects(local.submit(request('no-ffmpeg')), (error: unknown) => {
      assert.ok(error instanceof VideoProviderUnavailableError, String(error));
      assert.match(error.message, /cannot run ffmpeg at .*no-such-ffmpeg: ENOENT/);
      return true;
    });
    assert.equal(await readLock(mediaDir, 'no-ffmpeg'), undefined, 'no lock is left behind');
  });
});
