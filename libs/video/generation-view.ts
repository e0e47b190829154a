import { EVENT_TYPES, type VideoState } from '@pylon/contracts';
import type { EventFactory, VideoGeneration } from '@pylon/db';

/** A video generation as the API returns it (2.4), and as its events carry it. */
export interface VideoGenerationView {
  id: string;
  created_at: string;
  estimate_wait_seconds: string | null;
  liked: string | null;
  prompt: string;
  state: VideoState;
  video: { height: number; width: number; thumbnail: string; url: string } | null;
}

/** Files the API serves itself are stored as paths (`/media/…`); they are answered as absolute URLs. */
function absolute(url: string, publicUrl: string): string {
  return url.startsWith('/') ? `${publicUrl}${url}` : url;
}

export function toGenerationView(generation: VideoGeneration, publicUrl: string): VideoGenerationView {
  const done = generation.state === 'completed' && generation.videoUrl && generation.thumbnailUrl;
  return {
    id: generation.id,
    created_at: generation.createdAt.toISOString(),
    estimate_wait_seconds: generation.estimateWaitSeconds,
    liked: generation.liked,
    prompt: generation.prompt,
    state: generation.state,
    video: done
      ? {
          height: generation.height ?? 0,
          width: generation.width ?? 0,
          thumbnail: absolute(generation.thumbnailUrl!, publicUrl),
          url: absolute(generation.videoUrl!, publicUrl),
        }
      : null,
  };
}

/** `video_generation.completed` or `.failed`, carrying the generation as the API returns it. */
export function generationEvent(publicUrl: string): EventFactory<VideoGeneration> {
  return (generation) => ({
    type: generation.state === 'completed' ? EVENT_TYPES.videoGenerationCompleted : EVENT_TYPES.videoGenerationFailed,
    data: { ...toGenerationView(generation, publicUrl) },
  });
}
