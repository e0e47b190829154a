import type { JobStatus, VideoProvider, VideoRequest } from '@pylon/video-providers';

/** The injection token for the configured video provider (an interface cannot be one). */
export abstract class ConfiguredVideoProvider implements VideoProvider {
  abstract readonly name: VideoProvider['name'];
  abstract submit(request: VideoRequest): Promise<{ jobId: string; estimateWaitSeconds?: number }>;
  abstract poll(jobId: string): Promise<JobStatus>;
  abstract cancel(jobId: string): Promise<void>;
}
