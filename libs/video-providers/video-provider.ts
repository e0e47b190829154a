/** The aspect ratios every provider accepts (Luma's documented set). */
export type AspectRatio = '1:1' | '3:4' | '4:3' | '9:16' | '16:9' | '9:21' | '21:9';

export const ASPECT_RATIOS: readonly AspectRatio[] = Object.freeze(['1:1', '3:4', '4:3', '9:16', '16:9', '9:21', '21:9'] as const);

export function isAspectRatio(value: unknown): value is AspectRatio {
  return typeof value === 'string' && (ASPECT_RATIOS as readonly string[]).includes(value);
}

/** One video to make. `generationId` is Pylon's id; the local renderer names its files after it. */
export interface VideoRequest {
  generationId: string;
  prompt: string;
  aspectRatio: AspectRatio;
  /** Ask the provider to elaborate the prompt. Neither provider has such a switch: see each provider. */
  expandPrompt: boolean;
  /** A start frame (Luma: keyframes.frame0). */
  imageUrl?: string;
  /** An end frame (Luma: keyframes.frame1). */
  imageEndUrl?: string;
  /** Extension: the parent generation, completed. */
  extend?: {
    generationId: string;
    providerJobId: string;
    /** Local renderer: the absolute path of the parent's mp4. */
    videoFile?: string;
  };
}

export interface VideoResult {
  videoUrl: string;
  thumbnailUrl: string;
  width: number;
  height: number;
  /** Local renderer: the video, relative to the media directory (`videos/<name>.mp4`). */
  videoFile?: string;
  /** Local renderer: the thumbnail, relative to the media directory (`thumbnails/<name>.jpg`). */
  thumbnailFile?: string;
}

export type JobStatus =
  | { state: 'pending' | 'processing'; estimateWaitSeconds?: number }
  | { state: 'completed'; result: VideoResult }
  | { state: 'failed'; reason: string };

/**
 * Makes videos asynchronously: `submit` starts a job, `poll` says where it is. Both throw the
 * VideoProvider*Error classes: Rejected and Unavailable are final, Transient is worth retrying.
 * A job that ran and failed is not an error: `poll` answers `{ state: 'failed', reason }`.
 */
export interface VideoProvider {
  readonly name: 'luma';
  submit(request: VideoRequest): Promise<{ jobId: string; estimateWaitSeconds?: number }>;
  poll(jobId: string): Promise<JobStatus>;
  /** Stops the job for good (a render under way is killed, a remote job deleted); a finished job is left as it is. */
  cancel(jobId: string): Promise<void>;
}

export interface RenderOptions {
  /** Aborting kills ffmpeg and removes the render's files; render then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Seconds the render still needs, about once a second while ffmpeg runs. */
  onProgress?: (estimateWaitSeconds: number) => void;
}

/**
 * Makes a video inside this process, as one call that returns when it is done (the offline renderer):
 * the caller, a heartbeating Temporal activity, retries it elsewhere if this process dies and aborts it
 * on cancel. Throws the VideoProvider*Error classes like a VideoProvider.
 */
export interface VideoRenderer {
  readonly name: 'local';
  render(request: VideoRequest, options?: RenderOptions): Promise<VideoResult>;
}

/** What VIDEO_PROVIDER configures: a provider of remote jobs, or a renderer in this process. */
export type VideoBackend = VideoProvider | VideoRenderer;

export function rendersInProcess(backend: VideoBackend): backend is VideoRenderer {
  return 'render' in backend;
}
