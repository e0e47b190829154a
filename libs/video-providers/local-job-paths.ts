import { join } from 'node:path';

/** Job ids become file names: letters, digits, `_` and `-`, at most 128 (a UUID fits). */
export const LOCAL_JOB_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

/**
 * Where a local job keeps its files under the media directory. The final files are what the API
 * serves; everything else lives in `jobs/`. Per-attempt files carry the attempt's token, so an
 * abandoned attempt can never overwrite a newer one's output.
 */
export class LocalJobPaths {
  readonly jobsDir: string;
  readonly videosDir: string;
  readonly thumbnailsDir: string;

  constructor(readonly mediaDir: string) {
    this.jobsDir = join(mediaDir, 'jobs');
    this.videosDir = join(mediaDir, 'videos');
    this.thumbnailsDir = join(mediaDir, 'thumbnails');
  }

  /** The request, written by submit: `jobs/<jobId>.json`. */
  job(jobId: string): string {
    return join(this.jobsDir, `${jobId}.json`);
  }
  /** Held while an attempt runs: `{ token, pid, host, phase, startedAt }`; its mtime (or the progress file's) is the heartbeat. */
  lock(jobId: string): string {
    return join(this.jobsDir, `${jobId}.lock`);
  }
  /** Failure and interruption counts, and the final failure reason. */
  state(jobId: string): string {
    return join(this.jobsDir, `${jobId}.state.json`);
  }
  /** Width, height and duration of the finished video; written just before the final renames. */
  result(jobId: string): string {
    return join(this.jobsDir, `${jobId}.result.json`);
  }
  /** ffmpeg's stderr of the last failed attempt. */
  failureLog(jobId: string): string {
    return join(this.jobsDir, `${jobId}.log`);
  }

  /** Published files are named by the job's media name (its id and a random part), not its bare id. */
  videoFile(mediaName: string): string {
    return join(this.videosDir, `${mediaName}.mp4`);
  }
  thumbnailFile(mediaName: string): string {
    return join(this.thumbnailsDir, `${mediaName}.jpg`);
  }
  /** `videos/<mediaName>.mp4`, relative to the media directory. */
  relativeVideo(mediaName: string): string {
    return `videos/${mediaName}.mp4`;
  }
  relativeThumbnail(mediaName: string): string {
    return `thumbnails/${mediaName}.jpg`;
  }

  attempt(jobId: string, token: string) {
    return {
      prompt: join(this.jobsDir, `${jobId}.${token}.prompt.txt`),
      progress: join(this.jobsDir, `${jobId}.${token}.progress`),
      log: join(this.jobsDir, `${jobId}.${token}.log`),
      video: join(this.videosDir, `.${jobId}.${token}.mp4.part`),
      thumbnail: join(this.thumbnailsDir, `.${jobId}.${token}.jpg.part`),
    };
  }
}
