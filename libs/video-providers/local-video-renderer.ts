import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import { dejaVuSansPath, installedFfmpegPath } from './ffmpeg-binary';
import { readFfmpegProgress } from './ffmpeg-progress';
import { lastLine, probeVideo, VideoProbeError } from './ffmpeg-probe';
import { localRenderArgs, promptLayout } from './local-render-args';
import { LOCAL_RENDER_SIZES } from './local-render-size';
import { wrapPromptText } from './prompt-text';
import { isAspectRatio, type RenderOptions, type VideoRenderer, type VideoRequest, type VideoResult } from './video-provider';
import { VideoProviderError, VideoProviderRejectedError, VideoProviderTransientError, VideoProviderUnavailableError } from './video-provider-errors';

/** Generation ids become file names: letters, digits, `_` and `-`, at most 128 (a UUID fits). */
const FILE_NAME_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/** ffmpeg renders this kind of clip at several times real time; a guess for before it reports its speed. */
const GUESSED_SECONDS_PER_OUTPUT_SECOND = 0.25;
const PROGRESS_EVERY_MS = 1_000;

export interface LocalVideoRendererOptions {
  /** Root of `videos/` and `thumbnails/` (published), and `renders/` (work under way, never served): MEDIA_DIR. */
  mediaDir: string;
  /** Length of a new clip, or of an extension's new part, in seconds. Default 3. */
  renderSeconds?: number;
  /** Default: the binary from @ffmpeg-installer/ffmpeg. */
  ffmpegPath?: string;
  /** Default: DejaVu Sans from dejavu-fonts-ttf, else /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf. */
  fontFile?: string;
}

/**
 * The offline renderer: draws the prompt over a moving gradient, labelled "Pylon local renderer", into a
 * real MP4 (H.264, yuv420p, +faststart) and a JPEG thumbnail with ffmpeg. It is a stand-in, not a model:
 * `expandPrompt`, `imageUrl` and `imageEndUrl` are ignored. An extension draws the new prompt at the
 * parent's size (its aspect ratio wins over the request's) and appends it to the parent's video
 * (`extend.videoFile`) in a new file.
 *
 * One call renders one video in this process, as a child it waits for: the caller (a Temporal activity
 * that heartbeats) owns retries and cancellation. Work goes to `renders/<id>-<token>/`; the finished files
 * are renamed into `videos/` and `thumbnails/` under the id and 128 random bits, so a media URL cannot be
 * derived from a generation id. An earlier attempt's leftovers of the same generation are removed first.
 */
export class LocalVideoRenderer implements VideoRenderer {
  readonly name = 'local' as const;
  private readonly renderSeconds: number;

  constructor(private readonly options: LocalVideoRendererOptions) {
    if (!isAbsolute(options.mediaDir)) throw new Error(`mediaDir must be an absolute path, got ${options.mediaDir}`);
    this.renderSeconds = options.renderSeconds ?? 3;
    if (!(this.renderSeconds > 0 && this.renderSeconds <= 600)) throw new Error(`renderSeconds must be in (0, 600], got ${this.renderSeconds}`);
  }

  async render(request: VideoRequest, { signal, onProgress }: RenderOptions = {}): Promise<VideoResult> {
    validateRequest(request);
    const id = request.generationId;
    return this.guard(async () => {
      const { mediaDir } = this.options;
      await this.removeEarlierAttempts(id);
      const work = join(mediaDir, 'renders', `${id}-${randomBytes(6).toString('hex')}`);
      await mkdir(work, { recursive: true });
      try {
        const ffmpeg = this.ffmpegPath();
        const { size, parent } = await this.plan(id, request, ffmpeg);
        const layout = promptLayout(size.width, size.height);
        const files = {
          prompt: join(work, 'prompt.txt'),
          video: join(work, 'video.mp4'),
          thumbnail: join(work, 'thumbnail.jpg'),
          progress: join(work, 'progress.txt'),
          log: join(work, 'ffmpeg.log'),
        };
        await writeFile(files.prompt, wrapPromptText(request.prompt, layout.maxChars, layout.maxLines));
        const totalSeconds = (parent?.durationSeconds ?? 0) + this.renderSeconds;
        const args = localRenderArgs({
          ...size,
          seconds: this.renderSeconds,
          promptFile: files.prompt,
          fontFile: this.fontFile(),
          parentFile: parent?.file,
          videoOut: files.video,
          thumbnailOut: files.thumbnail,
          progressOut: files.progress,
        });
        onProgress?.(guess(totalSeconds));
        const exit = await this.runFfmpeg(ffmpeg, args, files, totalSeconds, signal, onProgress);
        if (exit !== 0) {
          const said = lastLine(await readFile(files.log, 'utf8').catch(() => '')) || `ffmpeg exited with code ${exit}`;
          throw new VideoProviderTransientError(`the local renderer failed; ffmpeg said: ${said}`);
        }
        const probe = await probeVideo(ffmpeg, files.video).catch((error: unknown) => {
          throw new VideoProviderTransientError(`ffmpeg exited 0 but its video is unreadable: ${(error as Error).message}`);
        });
        await stat(files.thumbnail);
        const name = `${id}-${randomBytes(16).toString('hex')}`;
        await mkdir(join(mediaDir, 'videos'), { recursive: true });
        await mkdir(join(mediaDir, 'thumbnails'), { recursive: true });
        await rename(files.thumbnail, join(mediaDir, 'thumbnails', `${name}.jpg`));
        await rename(files.video, join(mediaDir, 'videos', `${name}.mp4`));
        return {
          videoUrl: `/media/videos/${name}.mp4`,
          thumbnailUrl: `/media/thumbnails/${name}.jpg`,
          width: probe.width,
          height: probe.height,
          videoFile: `videos/${name}.mp4`,
          thumbnailFile: `thumbnails/${name}.jpg`,
        };
      } finally {
        await rm(work, { recursive: true, force: true });
      }
    });
  }

  /**
   * Runs ffmpeg as a child of this process and resolves with its exit code; reports progress while it
   * runs. An abort kills it (SIGKILL, its whole process group) and rejects with the signal's reason.
   */
  private async runFfmpeg(
    ffmpeg: string,
    args: string[],
    files: { progress: string; log: string },
    totalSeconds: number,
    signal: AbortSignal | undefined,
    onProgress: RenderOptions['onProgress'],
  ): Promise<number> {
    signal?.throwIfAborted();
    const log = await open(files.log, 'w');
    try {
      const child = spawn(ffmpeg, args, { detached: true, stdio: ['ignore', 'ignore', log.fd], windowsHide: true });
      const kill = () => {
        try {
          process.kill(-child.pid!, 'SIGKILL');
        } catch {
          child.kill('SIGKILL');
        }
      };
      const progress = setInterval(() => {
        void readFfmpegProgress(files.progress).then((reported) => {
          if (!reported?.speed) return;
          onProgress?.(Math.max(1, Math.ceil(Math.max(0, totalSeconds - reported.outTimeSeconds) / reported.speed + 0.5)));
        });
      }, PROGRESS_EVERY_MS);
      signal?.addEventListener('abort', kill, { once: true });
      try {
        const code = await new Promise<number | null>((resolve, reject) => {
          child.once('error', reject);
          child.once('exit', (exitCode) => resolve(exitCode));
        });
        signal?.throwIfAborted();
        return code ?? -1;
      } finally {
        clearInterval(progress);
        signal?.removeEventListener('abort', kill);
      }
    } finally {
      await log.close();
    }
  }

  /** The output size, and for an extension the parent (refused when it is not a readable video). */
  private async plan(
    id: string,
    request: VideoRequest,
    ffmpeg: string,
  ): Promise<{ size: { width: number; height: number }; parent?: { file: string; durationSeconds: number } }> {
    const parentFile = request.extend?.videoFile;
    if (!parentFile) return { size: LOCAL_RENDER_SIZES[request.aspectRatio] };
    try {
      const probe = await probeVideo(ffmpeg, parentFile, 10_000);
      const even = (n: number) => Math.max(2, n - (n % 2));
      return { size: { width: even(probe.width), height: even(probe.height) }, parent: { file: parentFile, durationSeconds: probe.durationSeconds } };
    } catch (error) {
      if (error instanceof VideoProbeError) throw new VideoProviderRejectedError(`cannot extend ${id}: the parent video ${error.message}`);
      throw error;
    }
  }

  /** What an attempt that died with its worker left under renders/ (its ffmpeg, if still running, finishes into a removed directory). */
  private async removeEarlierAttempts(id: string): Promise<void> {
    const renders = join(this.options.mediaDir, 'renders');
    const leftovers = (await readdir(renders).catch(() => [] as string[])).filter((entry) => entry.startsWith(`${id}-`));
    await Promise.all(leftovers.map((entry) => rm(join(renders, entry), { recursive: true, force: true })));
  }

  private ffmpegPath(): string {
    return this.options.ffmpegPath ?? installedFfmpegPath();
  }

  private fontFile(): string {
    return this.options.fontFile ?? dejaVuSansPath();
  }

  /** Maps what the file system and spawn throw onto the provider errors; an abort's reason passes through. */
  private async guard<T>(work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (error instanceof VideoProviderError) throw error;
      const code = errorCode(error);
      const syscall = (error as NodeJS.ErrnoException | undefined)?.syscall ?? '';
      if (syscall.startsWith('spawn') && (code === 'ENOENT' || code === 'EACCES')) {
        throw new VideoProviderUnavailableError(`the local video renderer cannot run ffmpeg at ${this.ffmpegPath()}: ${code}`, { cause: error });
      }
      if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') {
        throw new VideoProviderUnavailableError(
          `the media directory ${this.options.mediaDir} (MEDIA_DIR) is not writable: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
      if (code === undefined) throw error; // an abort's reason, or a bug: not the renderer's to rename
      throw new VideoProviderTransientError(`the local video renderer failed: ${error instanceof Error ? error.message : String(error)}`, {
        cause: error,
      });
    }
  }
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException | undefined)?.code;
}

function guess(outputSeconds: number): number {
  return Math.max(1, Math.ceil(1 + outputSeconds * GUESSED_SECONDS_PER_OUTPUT_SECOND));
}

function validateRequest(request: VideoRequest): void {
  if (typeof request.generationId !== 'string' || !FILE_NAME_ID.test(request.generationId)) {
    throw new VideoProviderRejectedError(
      `generationId ${JSON.stringify(request.generationId)} cannot name a file: use 1-128 letters, digits, '_' or '-'`,
    );
  }
  if (!isAspectRatio(request.aspectRatio))
    throw new VideoProviderRejectedError(`aspect ratio ${JSON.stringify(request.aspectRatio)} is not supported`);
  if (typeof request.prompt !== 'string') throw new VideoProviderRejectedError('prompt must be a string');
  const videoFile = request.extend?.videoFile;
  if (request.extend && !(typeof videoFile === 'string' && isAbsolute(videoFile))) {
    throw new VideoProviderRejectedError(
      `an extension needs the absolute path of the parent's mp4 (extend.videoFile), got ${JSON.stringify(videoFile)}`,
    );
  }
}
