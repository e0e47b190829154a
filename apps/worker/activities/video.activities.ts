import { Injectable } from '@nestjs/common';
import { ApplicationFailure } from '@temporalio/activity';
import type { VideoActivities, VideoPollResult, VideoSubmission, VideoWorkflowInput } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { VideoGeneration, VideoGenerationRepository } from '@pylon/db';
import { ConfiguredVideoProvider, generationEvent } from '@pylon/video';
import { VideoProviderRejectedError, VideoProviderUnavailableError } from '@pylon/video-providers';
import { heartbeating } from './heartbeating';

const HEARTBEAT_MS = 2_000;

/** Thin adapters between the video workflow, the provider and the generation projection. */
@Injectable()
export class VideoActivitiesImpl implements VideoActivities {
  constructor(
    private readonly generations: VideoGenerationRepository,
    private readonly provider: ConfiguredVideoProvider,
    private readonly config: PylonConfig,
  ) {}

  async submitVideo({ orgId, generationId }: VideoWorkflowInput): Promise<VideoSubmission> {
    const submission = { timeoutSeconds: this.config.videoTimeoutSeconds };
    const generation = await this.load(orgId, generationId);
    if (generation.providerJobId || generation.state === 'completed' || generation.state === 'failed') return submission;
    const parent = generation.parentId ? await this.load(orgId, generation.parentId) : undefined;
    const job = await this.call(() =>
      this.provider.submit({
        generationId,
        prompt: generation.prompt,
        aspectRatio: generation.aspectRatio,
        expandPrompt: generation.expandPrompt,
        ...(generation.imageUrl ? { imageUrl: generation.imageUrl } : {}),
        ...(generation.imageEndUrl ? { imageEndUrl: generation.imageEndUrl } : {}),
        ...(parent?.providerJobId ? { extend: { generationId: parent.id, providerJobId: parent.providerJobId } } : {}),
      }),
    );
    await this.generations.recordSubmission(orgId, generationId, job.jobId, estimate(job.estimateWaitSeconds));
    return submission;
  }

  async pollVideo({ orgId, generationId }: VideoWorkflowInput): Promise<VideoPollResult> {
    const generation = await this.load(orgId, generationId);
    if (generation.state === 'completed') return { state: 'completed', eventId: null };
    if (generation.state === 'failed') return { state: 'failed', reason: generation.failureReason ?? 'failed' };
    if (!generation.providerJobId) throw new Error(`generation ${generationId} was never submitted`);
    const status = await this.call(() => this.provider.poll(generation.providerJobId!));
    switch (status.state) {
      case 'pending':
      case 'processing':
        await this.generations.recordProgress(orgId, generationId, estimate(status.estimateWaitSeconds));
        return { state: status.state };
      case 'completed':
        return { state: 'completed', eventId: await this.generations.complete(orgId, generationId, status.result, generationEvent(this.config.publicUrl)) };
      case 'failed':
        return { state: 'failed', reason: status.reason };
    }
  }

  async cancelVideo({ orgId, generationId }: VideoWorkflowInput): Promise<void> {
    const generation = await this.load(orgId, generationId);
    if (generation.providerJobId && generation.state !== 'completed') await this.call(() => this.provider.cancel(generation.providerJobId!));
  }

  failVideo({ orgId, generationId, reason }: VideoWorkflowInput & { reason: string }): Promise<string | null> {
    return this.generations.failAndRefund(orgId, generationId, reason, generationEvent(this.config.publicUrl));
  }

  private async load(orgId: string, generationId: string): Promise<VideoGeneration> {
    const generation = await this.generations.findById(orgId, generationId);
    if (!generation) throw ApplicationFailure.nonRetryable(`generation ${generationId} does not exist`, 'GenerationNotFound');
    return generation;
  }

  /**
   * Provider errors that retrying cannot fix become non-retryable failures; the rest are retried. Heartbeats
   * while the provider answers, so a worker that dies mid-call is noticed in seconds, not at the call's timeout.
   */
  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await heartbeating(HEARTBEAT_MS, request);
    } catch (error) {
      if (error instanceof VideoProviderRejectedError) throw ApplicationFailure.nonRetryable(error.message, 'VideoProviderRejected');
      if (error instanceof VideoProviderUnavailableError) throw ApplicationFailure.nonRetryable(error.message, 'VideoProviderUnavailable');
      throw error;
    }
  }
}

function estimate(seconds: number | undefined): string | null {
  return seconds === undefined ? null : String(Math.max(0, Math.round(seconds)));
}
