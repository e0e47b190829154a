import { Injectable } from '@nestjs/common';
import type { VideoActivities, VideoPollResult, VideoSubmission, VideoWorkflowInput } from '@pylon/contracts';
import { VideoGenerationsService } from '@pylon/video';
import { heartbeating } from './heartbeating';

const HEARTBEAT_MS = 2_000;

/** The video workflow's activities: each one call into the video service. */
@Injectable()
export class VideoActivitiesImpl implements VideoActivities {
  constructor(private readonly videos: VideoGenerationsService) {}

  submitVideo({ orgId, generationId }: VideoWorkflowInput): Promise<VideoSubmission> {
    return this.call(() => this.videos.submit(orgId, generationId));
  }

  pollVideo({ orgId, generationId }: VideoWorkflowInput): Promise<VideoPollResult> {
    return this.call(() => this.videos.poll(orgId, generationId));
  }

  renderVideo({ orgId, generationId }: VideoWorkflowInput): Promise<VideoPollResult> {
    return this.call((signal) => this.videos.render(orgId, generationId, signal));
  }

  cancelVideo({ orgId, generationId }: VideoWorkflowInput): Promise<void> {
    return this.call(() => this.videos.stopAtProvider(orgId, generationId));
  }

  failVideo({ orgId, generationId, reason }: VideoWorkflowInput & { reason: string }): Promise<string | null> {
    return this.videos.fail(orgId, generationId, reason);
  }

  /** Heartbeats while the provider answers, so a worker that dies mid-call is noticed in seconds, not at the call's timeout. */
  private call<T>(request: (signal: AbortSignal) => Promise<T>): Promise<T> {
    return heartbeating(HEARTBEAT_MS, request);
  }
}
