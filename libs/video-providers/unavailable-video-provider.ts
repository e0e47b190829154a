import type { JobStatus, VideoProvider } from './video-provider';
import { VideoProviderUnavailableError } from './video-provider-errors';

/** Stands in for a provider that is not configured: the app starts, and only video calls fail, saying why. */
export class UnavailableVideoProvider implements VideoProvider {
  constructor(
    readonly name: VideoProvider['name'],
    readonly reason: string,
  ) {}

  async submit(): Promise<{ jobId: string; estimateWaitSeconds?: number }> {
    throw new VideoProviderUnavailableError(this.reason);
  }

  async poll(): Promise<JobStatus> {
    throw new VideoProviderUnavailableError(this.reason);
  }

  /** Nothing was ever submitted here, so nothing runs. */
  async cancel(): Promise<void> {}
}
