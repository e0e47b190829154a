import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { isAbsolute } from 'node:path';
import { dejaVuSansPath, installedFfmpegPath } from './ffmpeg-binary';
import { readFfmpegProgress } from './ffmpeg-progress';
import { lastLine, probeVideo, VideoProbeError } from './ffmpeg-probe';
import { errorCode, readJson, removeQuietly, writeJsonAtomic } from './local-job-files';
import { LOCAL_JOB_ID, LocalJobPaths } from './local-job-paths';
import { localRenderArgs, promptLayout, type LocalRenderSpec } from './local-render-args';
import {
  commandLineHas,
  isLockLive,
  lockInfo,
  pidExists,
  readLock,
  releaseLock,
  tryAcquireLock,
  updateLock,
  type RenderLock,
} from './local-render-lock';
import { LOCAL_RENDER_SIZES } from './local-render-size';
import { wrapPromptText } from './prompt-text';
import type { JobStatus, VideoProvider, VideoRequest, VideoResult } from './video-provider';
import { isAspectRatio } from './video-provider';
import { VideoProviderError, VideoProviderRejectedError, VideoProviderTransientError, VideoProviderUnavailableError } from './video-provider-errors';

export interface LocalVideoProviderOptions {
  /** Root of `jobs/`, `videos/` and `thumbnails/` (MEDIA_DIR). */
  mediaDir: string;
  /** Length of a new clip, or of an extension's new part, in seconds. Default 3. */
  renderSeconds?: number;
  /** Default: the binary from @ffmpeg-installer/ffmpeg. */
  ffmpegPath?: string;
  /** Default: DejaVu Sans from dejavu-fonts-ttf, else /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf. */
  fontFile?: string;
  /** A render whose heartbeat is older than this is presumed dead or hung and redone. Default 15 s. */
  staleAfterMs?: number;
  /** Failed ffmpeg runs (exit code ≠ 0) before the job fails. Default 2. */
  maxFailures?: number;
  /** Renders lost to a crash, a kill or a hang before the job fails. Default 5. */
  maxInterruptions?: number;
}

/** `jobs/<jobId>.json`: the request as submitted, and the clip length it was submitted with. */
interface StoredJob {
  request: VideoRequest;
  renderSeconds: number;
  submittedAt: string;
  /**
   * The job's file name under videos/ and thumbnails/: its id and 128 random bits, so a media URL cannot be
   * derived from a generation id (jobs submitted before it existed use the bare id).
   */
  mediaName?: string;
}

/** `jobs/<jobId>.state.json`. */
interface JobState {
  failures: number;
  interruptions: number;
  lastError?: string;
  failedReason?: string;
}

/** `jobs/<jobId>.result.json`. */
interface StoredResult {
  width: number;
  height: number;
  durationSeconds: number;
}

/** ffmpeg renders this kind of clip at several times real time; a guess for before it reports its speed. */
const GUESSED_SECONDS_PER_OUTPUT_SECOND = 0.25;

/**
 * The offline provider: renders a real MP4 (H.264, yuv420p, +faststart) and a JPEG thumbnail with
 * ffmpeg, showing the prompt over a moving gradient, labelled "Pylon local renderer". It is a
 * stand-in, not a model: `expandPrompt`, `imageUrl` and `imageEndUrl` are ignored. An extension
 * draws the new prompt at the parent's size (its aspect ratio wins over the request's) and appends
 * it to the parent's video in a new file; the parent is `extend.videoFile`, or else this media
 * directory's `videos/<extend.providerJobId>.mp4` (a local parent's job id is its generation id).
 *
 * Jobs are files, so they survive the worker: the job id is the generation id; `submit` writes
 * `jobs/<jobId>.json` and starts ffmpeg (detached, unref'd, no shell, stderr to a log). `poll` answers
 * completed once `videos/<jobId>.mp4` and `thumbnails/<jobId>.jpg` exist (written under temporary
 * names, renamed when done); processing while a render holds a live lock (`jobs/<jobId>.lock`:
 * pid + heartbeat); otherwise it starts the render again and answers processing. So a render that
 * died with its worker is redone by whoever polls next. Two failed ffmpeg runs fail the job with
 * ffmpeg's last stderr line; an unreadable parent video fails it at once.
 *
 * The finishing renames happen in the process that spawned ffmpeg; if that process is gone by then,
 * the next poll renders again. Two pollers in different processes may, in a narrow race, both
 * render: their temporary files differ and the results are the same, so the only cost is CPU.
 */
export class LocalVideoProvider implements VideoProvider {
  readonly name = 'local' as const;
  private readonly paths: LocalJobPaths;
  private readonly renderSeconds: number;
  private readonly staleAfterMs: number;
  private readonly maxFailures: number;
  private readonly maxInterruptions: number;
  private readonly ffmpegPathOption: string | undefined;
  private readonly fontFileOption: string | undefined;
  /** Attempts this process spawned and has not finished yet: job id → token. */
  private readonly running = new Map<string, string>();

  constructor(options: LocalVideoProviderOptions) {
    if (!isAbsolute(options.mediaDir)) throw new Error(`mediaDir must be an absolute path, got ${options.mediaDir}`);
    const renderSeconds = options.renderSeconds ?? 3;
    if (!(renderSeconds > 0 && renderSeconds <= 600)) throw new Error(`renderSeconds must be in (0, 600], got ${renderSeconds}`);
    this.paths = new LocalJobPaths(options.mediaDir);
    this.renderSeconds = renderSeconds;
    this.staleAfterMs = options.staleAfterMs ?? 15_000;
    this.maxFailures = options.maxFailures ?? 2;
    this.maxInterruptions = options.maxInterruptions ?? 5;
    this.ffmpegPathOption = options.ffmpegPath;
    this.fontFileOption = options.fontFile;
  }

  async submit(request: VideoRequest): Promise<{ jobId: string; estimateWaitSeconds?: number }> {
    validateRequest(request);
    const jobId = request.generationId;
    return this.guard(async () => {
      await this.makeDirectories();
      // Idempotent: a second submit of the same generation keeps the first request.
      if (!(await readJson<StoredJob>(this.paths.job(jobId)))) {
        const mediaName = `${jobId}-${randomBytes(16).toString('hex')}`;
        const job: StoredJob = { request, renderSeconds: this.renderSeconds, submittedAt: new Date().toISOString(), mediaName };
        await writeJsonAtomic(this.paths.job(jobId), job);
      }
      const status = await this.advance(jobId);
      const estimateWaitSeconds = status.state === 'pending' || status.state === 'processing' ? status.estimateWaitSeconds : undefined;
      return { jobId, estimateWaitSeconds };
    });
  }

  async poll(jobId: string): Promise<JobStatus> {
    if (!LOCAL_JOB_ID.test(jobId)) throw new VideoProviderRejectedError(`${JSON.stringify(jobId)} is not a local video job id`);
    return this.guard(() => this.advance(jobId));
  }

  /** Reports where the job is, (re)starting its render if no live attempt holds it. */
  private async advance(jobId: string): Promise<JobStatus> {
    const done = await this.completed(jobId);
    if (done) return done;
    let state = await this.readState(jobId);
    if (state.failedReason) return { state: 'failed', reason: state.failedReason };
    const job = await readJson<StoredJob>(this.paths.job(jobId));
    if (!job) throw new VideoProviderRejectedError(`there is no local video job ${jobId}; submit it first`);

    const lock = await this.readLock(jobId);
    if (lock) {
      // This process's own attempt may have just exited (its pid gone) while its exit handler publishes: trust the heartbeat.
      const ours = lock.info !== undefined && this.running.get(jobId) === lock.info.token;
      const live = ours ? Date.now() - lock.heartbeatMs <= this.staleAfterMs : isLockLive(lock, this.staleAfterMs);
      if (live) {
        return { state: 'processing', estimateWaitSeconds: await this.estimate(jobId, lock, job) };
      }
      state = await this.abandon(jobId, lock);
      if (state.failedReason) return { state: 'failed', reason: state.failedReason };
    }
    return this.start(jobId, job);
  }

  private async start(jobId: string, job: StoredJob): Promise<JobStatus> {
    const token = randomBytes(6).toString('hex');
    const lockFile = this.paths.lock(jobId);
    await this.makeDirectories();
    if (!(await tryAcquireLock(lockFile, lockInfo(token, 'preparing')))) {
      return { state: 'processing', estimateWaitSeconds: this.guess(job.renderSeconds) };
    }
    const attempt = this.paths.attempt(jobId, token);
    let spawned = false;
    try {
      // Re-check under the lock: an attempt may have finished or failed since the first look.
      const done = await this.completed(jobId);
      if (done) return done;
      const state = await this.readState(jobId);
      if (state.failedReason) return { state: 'failed', reason: state.failedReason };

      const ffmpeg = this.ffmpegPath();
      const fontFile = this.fontFile();
      const planned = await this.plan(jobId, job, ffmpeg);
      if ('failed' in planned) {
        await this.updateState(jobId, (s) => ({ ...s, lastError: planned.failed, failedReason: planned.failed }));
        return { state: 'failed', reason: planned.failed };
      }
      const { size, parent } = planned;
      const layout = promptLayout(size.width, size.height);
      await writeFile(attempt.prompt, wrapPromptText(job.request.prompt, layout.maxChars, layout.maxLines));
      const spec: LocalRenderSpec = {
        ...size,
        seconds: job.renderSeconds,
        promptFile: attempt.prompt,
        fontFile,
        parentFile: parent?.file,
        videoOut: attempt.video,
        thumbnailOut: attempt.thumbnail,
        progressOut: attempt.progress,
      };
      const totalSeconds = (parent?.durationSeconds ?? 0) + job.renderSeconds;
      const pid = await this.spawnRender(jobId, token, ffmpeg, localRenderArgs(spec), attempt.log, totalSeconds);
      spawned = true;
      await updateLock(lockFile, lockInfo(token, 'rendering', pid, totalSeconds));
      return { state: 'processing', estimateWaitSeconds: this.guess(totalSeconds) };
    } finally {
      if (!spawned) {
        await removeQuietly(attempt.prompt, attempt.log, attempt.progress);
        await releaseLock(lockFile, token);
      }
    }
  }

  /** The output size, and for an extension the parent (or why the job cannot be done). */
  private async plan(
    jobId: string,
    job: StoredJob,
    ffmpeg: string,
  ): Promise<{ size: { width: number; height: number }; parent?: { file: string; durationSeconds: number } } | { failed: string }> {
    const { extend } = job.request;
    if (!extend) return { size: LOCAL_RENDER_SIZES[job.request.aspectRatio] };
    const parentFile = extend.videoFile ?? this.paths.videoFile(await this.mediaName(extend.providerJobId));
    try {
      const probe = await probeVideo(ffmpeg, parentFile, Math.min(10_000, this.staleAfterMs));
      const even = (n: number) => Math.max(2, n - (n % 2));
      return { size: { width: even(probe.width), height: even(probe.height) }, parent: { file: parentFile, durationSeconds: probe.durationSeconds } };
    } catch (error) {
      if (error instanceof VideoProbeError) return { failed: `cannot extend ${jobId}: the parent video ${error.message}` };
      throw error;
    }
  }

  /** Starts ffmpeg detached (it outlives this process), stderr to `log`; resolves with its pid once it runs. */
  private async spawnRender(jobId: string, token: string, ffmpeg: string, args: string[], log: string, totalSeconds: number): Promise<number> {
    const logFile = await open(log, 'w');
    try {
      const child = spawn(ffmpeg, args, { detached: true, stdio: ['ignore', 'ignore', logFile.fd], windowsHide: true });
      await new Promise<void>((resolve, reject) => {
        child.once('spawn', resolve);
        child.once('error', reject);
      });
      child.unref();
      this.running.set(jobId, token);
      child.once('exit', (code, signal) => {
        this.finish(jobId, token, code, signal, totalSeconds)
          .catch(() => undefined) // the next poll finds no video and renders again
          .finally(() => {
            if (this.running.get(jobId) === token) this.running.delete(jobId);
          });
      });
      return child.pid!;
    } finally {
      await logFile.close();
    }
  }

  /** Runs in the spawning process when ffmpeg exits: publish the files, or count the failure. */
  private async finish(jobId: string, token: string, code: number | null, signal: NodeJS.Signals | null, totalSeconds: number): Promise<void> {
    const lockFile = this.paths.lock(jobId);
    const attempt = this.paths.attempt(jobId, token);
    try {
      // If the lock is no longer this attempt's, a poller found it stale and took over (and counted it): just clean up.
      const stillOurs = await updateLock(lockFile, lockInfo(token, 'finishing', process.pid, totalSeconds)).catch(() => false);
      if (!stillOurs) return;
      if (code === 0) {
        const probe = await probeVideo(this.ffmpegPath(), attempt.video).catch((error: unknown) => error as Error);
        if (probe instanceof Error) {
          await this.recordFailure(jobId, `ffmpeg exited 0 but its video is unreadable: ${probe.message}`);
        } else {
          await stat(attempt.thumbnail);
          const result: StoredResult = { width: probe.width, height: probe.height, durationSeconds: probe.durationSeconds };
          await writeJsonAtomic(this.paths.result(jobId), result);
          const name = await this.mediaName(jobId);
          await rename(attempt.thumbnail, this.paths.thumbnailFile(name));
          await rename(attempt.video, this.paths.videoFile(name)); // last: the video's presence means done
        }
      } else if (code !== null) {
        const stderr = await readFile(attempt.log, 'utf8').catch(() => '');
        await this.recordFailure(jobId, lastLine(stderr) || `ffmpeg exited with code ${code}`);
        await rename(attempt.log, this.paths.failureLog(jobId)).catch(() => undefined);
      } else {
        await this.recordInterruption(jobId, `ffmpeg was stopped by ${signal ?? 'a signal'}`);
      }
    } finally {
      await removeQuietly(attempt.video, attempt.thumbnail, attempt.prompt, attempt.progress, attempt.log);
      await releaseLock(lockFile, token);
    }
  }

  /** A stale lock: its render died (or hung, and is killed if it is provably ours). Clears it and counts the interruption. */
  private async abandon(jobId: string, lock: RenderLock): Promise<JobState> {
    await this.stopRender(jobId, lock);
    return this.recordInterruption(jobId, 'the render stopped without finishing (its worker or ffmpeg died, or it hung)');
  }

  /** Kills the lock's ffmpeg if it provably is this job's, and removes the attempt's files and the lock. */
  private async stopRender(jobId: string, lock: RenderLock): Promise<void> {
    const token = lock.info?.token;
    if (token && lock.info?.phase === 'rendering' && pidExists(lock.info.pid) && commandLineHas(lock.info.pid, token) === true) {
      // ffmpeg was spawned detached, so it leads its own process group: end the group.
      for (const target of [-lock.info.pid, lock.info.pid]) {
        try {
          process.kill(target, 'SIGKILL');
          break;
        } catch {
          // not a group leader, or already gone
        }
      }
    }
    if (token) {
      const attempt = this.paths.attempt(jobId, token);
      await removeQuietly(attempt.video, attempt.thumbnail, attempt.prompt, attempt.progress, attempt.log);
    }
    await removeQuietly(this.paths.lock(jobId));
  }

  /** Fails the job for good (no render starts again) and stops the render under way; a finished job stays finished. */
  async cancel(jobId: string): Promise<void> {
    if (!LOCAL_JOB_ID.test(jobId)) throw new VideoProviderRejectedError(`${JSON.stringify(jobId)} is not a local video job id`);
    return this.guard(async () => {
      if (await this.completed(jobId)) return;
      await this.updateState(jobId, (state) => ({ ...state, lastError: 'cancelled', failedReason: state.failedReason ?? 'cancelled' }));
      const lock = await this.readLock(jobId);
      if (lock) await this.stopRender(jobId, lock);
    });
  }

  private async recordFailure(jobId: string, error: string): Promise<JobState> {
    return this.updateState(jobId, (state) => {
      const failures = state.failures + 1;
      const failedReason = failures >= this.maxFailures ? `the local renderer failed ${failures} times; ffmpeg said: ${error}` : state.failedReason;
      return { ...state, failures, lastError: error, failedReason };
    });
  }

  private async recordInterruption(jobId: string, error: string): Promise<JobState> {
    return this.updateState(jobId, (state) => {
      const interruptions = state.interruptions + 1;
      const failedReason =
        interruptions >= this.maxInterruptions ? `the local render was interrupted ${interruptions} times; last: ${error}` : state.failedReason;
      return { ...state, interruptions, lastError: error, failedReason };
    });
  }

  private async updateState(jobId: string, change: (state: JobState) => JobState): Promise<JobState> {
    const next = change(await this.readState(jobId));
    await writeJsonAtomic(this.paths.state(jobId), next);
    return next;
  }

  private async readState(jobId: string): Promise<JobState> {
    const state = await readJson<Partial<JobState>>(this.paths.state(jobId));
    return {
      failures: state?.failures ?? 0,
      interruptions: state?.interruptions ?? 0,
      lastError: state?.lastError,
      failedReason: state?.failedReason,
    };
  }

  private async completed(jobId: string): Promise<JobStatus | undefined> {
    const exists = (file: string) =>
      stat(file).then(
        () => true,
        () => false,
      );
    const name = await this.mediaName(jobId);
    if (!(await exists(this.paths.videoFile(name))) || !(await exists(this.paths.thumbnailFile(name)))) return undefined;
    let stored = await readJson<StoredResult>(this.paths.result(jobId));
    if (!stored) {
      const probe = await probeVideo(this.ffmpegPath(), this.paths.videoFile(name));
      stored = { width: probe.width, height: probe.height, durationSeconds: probe.durationSeconds };
    }
    const result: VideoResult = {
      videoUrl: `/media/${this.paths.relativeVideo(name)}`,
      thumbnailUrl: `/media/${this.paths.relativeThumbnail(name)}`,
      width: stored.width,
      height: stored.height,
      videoFile: this.paths.relativeVideo(name),
      thumbnailFile: this.paths.relativeThumbnail(name),
    };
    return { state: 'completed', result };
  }

  /** The job's name under videos/ and thumbnails/ (see StoredJob.mediaName). */
  private async mediaName(jobId: string): Promise<string> {
    return (await readJson<StoredJob>(this.paths.job(jobId)))?.mediaName ?? jobId;
  }

  private readLock(jobId: string): Promise<RenderLock | undefined> {
    return readLock(this.paths.lock(jobId), (token) => this.paths.attempt(jobId, token).progress);
  }

  /** Seconds left: from ffmpeg's reported position and speed once it has them, else a guess. */
  private async estimate(jobId: string, lock: RenderLock, job: StoredJob): Promise<number> {
    const total = lock.info?.totalSeconds ?? job.renderSeconds;
    const progress = lock.info ? await readFfmpegProgress(this.paths.attempt(jobId, lock.info.token).progress) : undefined;
    if (!progress?.speed) return this.guess(total);
    return Math.max(1, Math.ceil(Math.max(0, total - progress.outTimeSeconds) / progress.speed + 0.5));
  }

  private guess(outputSeconds: number): number {
    return Math.max(1, Math.ceil(1 + outputSeconds * GUESSED_SECONDS_PER_OUTPUT_SECOND));
  }

  private async makeDirectories(): Promise<void> {
    for (const dir of [this.paths.jobsDir, this.paths.videosDir, this.paths.thumbnailsDir]) await mkdir(dir, { recursive: true });
  }

  private ffmpegPath(): string {
    return this.ffmpegPathOption ?? installedFfmpegPath();
  }

  private fontFile(): string {
    return this.fontFileOption ?? dejaVuSansPath();
  }

  /** Maps what the file system and spawn throw onto the provider errors. */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof VideoProviderError) throw error;
      const code = errorCode(error);
      const syscall = (error as NodeJS.ErrnoException).syscall ?? '';
      if (syscall.startsWith('spawn') && (code === 'ENOENT' || code === 'EACCES')) {
        throw new VideoProviderUnavailableError(`the local video renderer cannot run ffmpeg at ${this.ffmpegPath()}: ${code}`, { cause: error });
      }
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
        throw new VideoProviderUnavailableError(
          `the media directory ${this.paths.mediaDir} (MEDIA_DIR) is not writable: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
      throw new VideoProviderTransientError(`the local video renderer failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
  }
}

function validateRequest(request: VideoRequest): void {
  if (typeof request.generationId !== 'string' || !LOCAL_JOB_ID.test(request.generationId)) {
    throw new VideoProviderRejectedError(
      `generationId ${JSON.stringify(request.generationId)} cannot name a local job: use 1-128 letters, digits, '_' or '-'`,
    );
  }
  if (!isAspectRatio(request.aspectRatio))
    throw new VideoProviderRejectedError(`aspect ratio ${JSON.stringify(request.aspectRatio)} is not supported`);
  if (typeof request.prompt !== 'string') throw new VideoProviderRejectedError('prompt must be a string');
  const { extend } = request;
  if (extend) {
    if (extend.videoFile !== undefined && !(typeof extend.videoFile === 'string' && isAbsolute(extend.videoFile))) {
      throw new VideoProviderRejectedError(`extend.videoFile must be the absolute path of the parent's mp4, got ${JSON.stringify(extend.videoFile)}`);
    }
    if (extend.videoFile === undefined && !(typeof extend.providerJobId === 'string' && LOCAL_JOB_ID.test(extend.providerJobId))) {
      throw new VideoProviderRejectedError("an extension needs the parent's local job id (extend.providerJobId) or its file (extend.videoFile)");
    }
  }
}
