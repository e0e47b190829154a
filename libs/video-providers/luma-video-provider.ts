import type { JobStatus, VideoProvider, VideoRequest } from './video-provider';
import { VideoProviderRejectedError } from './video-provider-errors';
import type { LumaResolution, LumaVideoModel } from './luma-api';
import { lumaJson, type LumaHttpOptions } from './luma-http';
import { asLumaGeneration, lumaJobStatus } from './luma-job-status';
import { lumaRequestBody } from './luma-request-body';

export const LUMA_DEFAULT_BASE_URL = 'https://api.lumalabs.ai/dream-machine/v1';

export interface LumaVideoProviderOptions {
  apiKey: string;
  /** Default https://api.lumalabs.ai/dream-machine/v1. */
  baseUrl?: string;
  /** Bound on each HTTP call, body included. */
  timeoutMs: number;
  /** Default 'ray-2'. */
  model?: LumaVideoModel;
  /** Default '720p'; also the basis of the nominal width and height (see lumaNominalSize). */
  resolution?: LumaResolution;
}

/**
 * Luma's Dream Machine API. `submit` creates a generation (`POST /generations`) and its id is the
 * job id; `poll` reads it (`GET /generations/{id}`). Neither retries: failures are thrown as
 * VideoProviderRejectedError or VideoProviderTransientError for the caller's retry policy. Note that
 * `submit` is not idempotent at Luma: retrying one that timed out may create a second generation.
 * `expandPrompt` is ignored (the API has no such field); see lumaRequestBody for the body.
 */
export class LumaVideoProvider implements VideoProvider {
  readonly name = 'luma' as const;
  private readonly http: LumaHttpOptions;
  private readonly model: LumaVideoModel;
  private readonly resolution: LumaResolution;

  constructor(options: LumaVideoProviderOptions) {
    this.http = { apiKey: options.apiKey, baseUrl: options.baseUrl || LUMA_DEFAULT_BASE_URL, timeoutMs: options.timeoutMs };
    this.model = options.model ?? 'ray-2';
    this.resolution = options.resolution ?? '720p';
  }

  async submit(request: VideoRequest): Promise<{ jobId: string; estimateWaitSeconds?: number }> {
    const body = lumaRequestBody(request, { model: this.model, resolution: this.resolution });
    const generation = asLumaGeneration(await lumaJson(this.http, 'POST', '/generations', body), 'POST /generations');
    return { jobId: generation.id };
  }

  async poll(jobId: string): Promise<JobStatus> {
    if (!jobId) throw new VideoProviderRejectedError('a Luma job id is required');
    const path = `/generations/${encodeURIComponent(jobId)}`;
    const generation = asLumaGeneration(await lumaJson(this.http, 'GET', path), `GET ${path}`);
    // Luma echoes the request it was given; if it ever does not, assume its default aspect ratio (16:9).
    return lumaJobStatus(generation, { aspectRatio: '16:9', resolution: this.resolution });
  }

  /** Deletes the generation at Luma, which stops it; one Luma no longer knows is already gone. */
  async cancel(jobId: string): Promise<void> {
    if (!jobId) throw new VideoProviderRejectedError('a Luma job id is required');
    try {
      await lumaJson(this.http, 'DELETE', `/generations/${encodeURIComponent(jobId)}`);
    } catch (error) {
      if (error instanceof VideoProviderRejectedError && /answered 404 to/.test(error.message)) return;
      throw error;
    }
  }
}
