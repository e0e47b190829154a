import type { JobStatus } from './video-provider';
import type { AspectRatio } from './video-provider';
import { VideoProviderRejectedError } from './video-provider-errors';
import type { LumaGeneration, LumaResolution } from './luma-api';
import { lumaSizeOf } from './luma-nominal-size';

/** Checks the shape of a Generation object just enough to read it; anything else is a malformed answer. */
export function asLumaGeneration(value: unknown, what: string): LumaGeneration {
  if (!value || typeof value !== 'object' || typeof (value as { id?: unknown }).id !== 'string' || !(value as { id: string }).id) {
    throw new VideoProviderRejectedError(`Luma ${what} answered without a generation id`);
  }
  return value as LumaGeneration;
}

/**
 * queued → pending, dreaming → processing, completed → completed (assets.video; assets.image, or
 * assets.thumbnail, as the thumbnail — '' if Luma gave neither), failed → failed with failure_reason.
 * Width and height are nominal (see lumaNominalSize), from the aspect ratio and resolution Luma
 * echoes in `request`, else from the fallback. Luma gives no time estimate.
 */
export function lumaJobStatus(generation: LumaGeneration, fallback: { aspectRatio: AspectRatio; resolution: LumaResolution }): JobStatus {
  switch (generation.state) {
    case 'queued':
      return { state: 'pending' };
    case 'dreaming':
      return { state: 'processing' };
    case 'failed':
      return { state: 'failed', reason: generation.failure_reason || 'Luma reported the generation failed without a reason' };
    case 'completed': {
      const videoUrl = generation.assets?.video;
      if (!videoUrl) return { state: 'failed', reason: 'Luma reported the generation completed but gave no video URL' };
      const thumbnailUrl = generation.assets?.image || generation.assets?.thumbnail || '';
      return { state: 'completed', result: { videoUrl, thumbnailUrl, ...lumaSizeOf(generation.request, fallback) } };
    }
    default:
      throw new VideoProviderRejectedError(`Luma answered an unknown generation state ${JSON.stringify((generation as { state?: unknown }).state)}`);
  }
}
