import { randomUUID } from 'node:crypto';
import { Injectable, Logger } from '@nestjs/common';
import { DEFAULT_ASPECT_RATIO, ErrorCode, VIDEO_CANCELLED_REASON, WORKFLOW_TYPES, videoWorkflowId } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { DuplicateIdempotencyKeyError, InsufficientTokensError, VideoGeneration, VideoGenerationRepository } from '@pylon/db';
import { LimitsService } from '@pylon/limits';
import { EventAnnouncer, WorkflowStarter } from '@pylon/temporal';
import { generationEvent } from '@pylon/video';
import { ApiError } from '../common/api-error';
import { assertSameRequest, fingerprint } from '@pylon/idempotency';
import type { CreateGenerationRequest } from './dto/video.dto';

/**
 * A generation is paid for when it is created: the debit and the pending row are one transaction,
 * then workflow `video:<id>` takes over; if that cannot start, the generation fails and is refunded.
 */
@Injectable()
export class VideoGenerationsService {
  private readonly logger = new Logger(VideoGenerationsService.name);

  constructor(
    private readonly generations: VideoGenerationRepository,
    private readonly workflows: WorkflowStarter,
    private readonly events: EventAnnouncer,
    private readonly config: PylonConfig,
    private readonly limits: LimitsService,
  ) {}

  async create(orgId: string, request: CreateGenerationRequest, idempotencyKey: string | null, parentId: string | null = null): Promise<VideoGeneration> {
    const requestHash = fingerprint({
      parent: parentId ?? '',
      user_prompt: request.user_prompt,
      aspect_ratio: request.aspect_ratio ?? DEFAULT_ASPECT_RATIO,
      expand_prompt: String(request.expand_prompt ?? false),
      image_url: request.image_url ?? '',
      image_end_url: request.image_end_url ?? '',
    });
    if (idempotencyKey) {
      const earlier = await this.generations.findByIdempotencyKey(orgId, idempotencyKey);
      if (earlier) return this.replay(earlier, requestHash);
    }
    if (parentId) await this.assertExtendable(orgId, parentId);

    let generation: VideoGeneration;
    try {
      generation = await this.generations.createWithDebit(
        {
          id: randomUUID(),
          orgId,
          parentId,
          prompt: request.user_prompt,
          aspectRatio: request.aspect_ratio ?? DEFAULT_ASPECT_RATIO,
          expandPrompt: request.expand_prompt ?? false,
          imageUrl: request.image_url ?? null,
          imageEndUrl: request.image_end_url ?? null,
          provider: this.config.videoProvider,
          idempotencyKey,
          requestHash,
          createdAt: new Date(),
        },
        this.config.videoTokenCost,
      );
    } catch (error) {
      if (error instanceof InsufficientTokensError) {
        throw new ApiError(ErrorCode.InsufficientTokens, `a generation costs ${this.config.videoTokenCost} tokens`);
      }
      if (error instanceof DuplicateIdempotencyKeyError && idempotencyKey) {
        const winner = await this.generations.findByIdempotencyKey(orgId, idempotencyKey);
        if (winner) return this.replay(winner, requestHash);
      }
      throw error;
    }
    await this.start(generation);
    return generation;
  }

  async getMany(orgId: string, ids: string[]): Promise<VideoGeneration[]> {
    const unique = [...new Set(ids)];
    const found = new Map((await this.generations.findByIds(orgId, unique)).map((generation) => [generation.id, generation]));
    return unique.flatMap((id) => found.get(id) ?? []);
  }

  /**
   * Stops a pending or processing generation: its workflow stops the render or provider job, then fails
   * it with reason `cancelled` and refunds its tokens (once: the refund is tied to its debit). A second
   * cancel answers the same generation; one that completed or failed otherwise is 409.
   */
  async cancel(orgId: string, generationId: string): Promise<VideoGeneration> {
    const generation = await this.generations.findById(orgId, generationId);
    if (!generation) throw ApiError.notFound('no such generation');
    if (generation.state === 'failed' && generation.failureReason === VIDEO_CANCELLED_REASON) return generation;
    if (generation.state === 'completed' || generation.state === 'failed') {
      throw new ApiError(ErrorCode.GenerationNotCancellable, `the generation already ${generation.state}`);
    }
    const hadWorkflow = await this.workflows.cancel(videoWorkflowId(generationId));
    if (!hadWorkflow) {
      await this.events.announce(orgId, await this.generations.failAndRefund(orgId, generationId, VIDEO_CANCELLED_REASON, generationEvent(this.config.publicUrl)));
    }
    return (await this.generations.findById(orgId, generationId))!;
  }

  private async assertExtendable(orgId: string, parentId: string): Promise<void> {
    const parent = await this.generations.findById(orgId, parentId);
    if (!parent) throw ApiError.notFound('no such generation');
    if (parent.state !== 'completed') {
      throw new ApiError(ErrorCode.GenerationNotCompleted, `only a completed generation can be extended; this one is ${parent.state}`);
    }
  }

  private async start(generation: VideoGeneration): Promise<void> {
    try {
      await this.workflows.start({
        workflowType: WORKFLOW_TYPES.videoGeneration,
        workflowId: videoWorkflowId(generation.id),
        args: [{ generationId: generation.id, orgId: generation.orgId }],
        orgId: generation.orgId,
        fairnessWeight: await this.limits.dispatchWeight(generation.orgId),
        resourceId: generation.id,
        summary: `${generation.parentId ? 'Video extension' : 'Video generation'} ${generation.id}`,
      });
    } catch (error) {
      this.logger.error({ err: error }, `could not start the workflow of generation ${generation.id}; refunding it`);
      await this.generations.failAndRefund(generation.orgId, generation.id, 'the workflow engine was unavailable', generationEvent(this.config.publicUrl));
      // Its event is not announced: the workflow engine that would deliver it is the thing that is down.
      throw new ApiError(ErrorCode.OrchestratorUnavailable, 'the workflow engine is unavailable; the tokens were refunded');
    }
  }

  private async replay(earlier: VideoGeneration, requestHash: string): Promise<VideoGeneration> {
    assertSameRequest(earlier, requestHash);
    if (earlier.state === 'pending') await this.start(earlier);
    return earlier;
  }
}
