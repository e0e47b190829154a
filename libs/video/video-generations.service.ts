import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { Inject, Injectable, Logger } from '@nestjs/common';
import {
  PylonError,
  DEFAULT_ASPECT_RATIO,
  ErrorCode,
  VIDEO_CANCELLED_REASON,
  WORKFLOW_TYPES,
  videoWorkflowId,
  type VideoAspectRatio,
  type VideoPollResult,
  type VideoSubmission,
} from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { Transactions, VideoGeneration } from '@pylon/db';
import { VideoGenerationRepository } from './repositories/video-generation.repository';
import { createOnce, fingerprint } from '@pylon/idempotency';
import { InsufficientTokensError, LedgerService } from '@pylon/ledger';
import { LimitsService } from '@pylon/limits';
import { EventAnnouncer, WorkflowStarter } from '@pylon/temporal';
import { PrivateTargets, RefusedUrlError, assertNoPrivateTargetInUrl } from '@pylon/webhooks';
import { rendersInProcess, type VideoBackend, type VideoProvider, type VideoRenderer } from '@pylon/video-providers';
import { generationEvent } from './generation-view';
import { VIDEO_BACKEND } from './video-provider.token';

/** What a generation or an extension is asked for (4.4 and 4.6). */
export interface GenerationRequest {
  user_prompt: string;
  aspect_ratio?: VideoAspectRatio;
  expand_prompt?: boolean;
  image_url?: string | null;
  image_end_url?: string | null;
}

/** How often a render's progress is written to the projection. */
const PROGRESS_WRITE_MS = 2_000;

/** The generation does not exist (any more): nothing a retry can change. */
export class GenerationNotFoundError extends Error {}

/**
 * Video generation's rules, for the API and the worker: a generation is paid for when it is created
 * (the pending row and its debit are one transaction), workflow `video:<id>` has it rendered in the worker
 * (offline renderer) or takes it to the provider and polls it (Luma), and a generation that fails, is
 * cancelled or cannot start gets its tokens back, exactly once.
 */
@Injectable()
export class VideoGenerationsService {
  private readonly logger = new Logger(VideoGenerationsService.name);
  private readonly privateTargets: PrivateTargets;

  constructor(
    private readonly generations: VideoGenerationRepository,
    private readonly ledger: LedgerService,
    private readonly transactions: Transactions,
    @Inject(VIDEO_BACKEND) private readonly backend: VideoBackend,
    private readonly workflows: WorkflowStarter,
    private readonly events: EventAnnouncer,
    private readonly config: PylonConfig,
    private readonly limits: LimitsService,
  ) {
    this.privateTargets = PrivateTargets.parse(config.webhookAllowedPrivateTargets);
  }

  async create(orgId: string, request: GenerationRequest, idempotencyKey: string | null, parentId: string | null = null): Promise<VideoGeneration> {
    const requestHash = fingerprint({
      parent: parentId ?? '',
      user_prompt: request.user_prompt,
      aspect_ratio: request.aspect_ratio ?? DEFAULT_ASPECT_RATIO,
      expand_prompt: String(request.expand_prompt ?? false),
      image_url: request.image_url ?? '',
      image_end_url: request.image_end_url ?? '',
    });
    return createOnce<VideoGeneration>(idempotencyKey, requestHash, {
      findByKey: (key) => this.generations.findByIdempotencyKey(orgId, key),
      admit: async () => {
        this.assertImagesNotPrivate(request);
        if (parentId) await this.assertExtendable(orgId, parentId);
      },
      insert: () => this.insertPaid(orgId, request, parentId, idempotencyKey, requestHash),
      work: {
        awaitsStart: (earlier) => earlier.state === 'pending',
        start: (generation) => this.startWorkflow(generation),
        undo: async (generation, error) => {
          this.logger.error({ err: error }, `could not start the workflow of generation ${generation.id}; refunding it`);
          await this.fail(orgId, generation.id, 'the workflow engine was unavailable');
          // Its event is not announced: the workflow engine that would deliver it is the thing that is down.
          return new PylonError(ErrorCode.OrchestratorUnavailable, 'the workflow engine is unavailable; the tokens were refunded');
        },
      },
    });
  }

  /** The provider fetches the images: a URL naming a private or metadata address is refused like a webhook receiver's. */
  private assertImagesNotPrivate(request: GenerationRequest): void {
    try {
      if (request.image_url) assertNoPrivateTargetInUrl('image_url', request.image_url, this.privateTargets);
      if (request.image_end_url) assertNoPrivateTargetInUrl('image_end_url', request.image_end_url, this.privateTargets);
    } catch (error) {
      if (error instanceof RefusedUrlError) throw PylonError.invalidRequest(error.message);
      throw error;
    }
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
    if (!generation) throw PylonError.notFound('no such generation');
    if (generation.state === 'failed' && generation.failureReason === VIDEO_CANCELLED_REASON) return generation;
    if (generation.state === 'completed' || generation.state === 'failed') {
      throw new PylonError(ErrorCode.GenerationNotCancellable, `the generation already ${generation.state}`);
    }
    const hadWorkflow = await this.workflows.cancel(videoWorkflowId(generationId));
    if (!hadWorkflow) await this.events.announce(orgId, await this.fail(orgId, generationId, VIDEO_CANCELLED_REASON));
    return (await this.generations.findById(orgId, generationId))!;
  }

  /**
   * Hands a pending generation to the provider (once: a submitted or final one is left as it is), or
   * says that the worker renders it itself (renderVideo).
   */
  async submit(orgId: string, generationId: string): Promise<VideoSubmission> {
    const submission = { timeoutSeconds: this.config.videoTimeoutSeconds };
    if (rendersInProcess(this.backend)) return { ...submission, renders: true };
    const generation = await this.load(orgId, generationId);
    if (generation.providerJobId || generation.state === 'completed' || generation.state === 'failed') return submission;
    const parent = generation.parentId ? await this.load(orgId, generation.parentId) : undefined;
    const job = await this.jobs().submit({
      generationId,
      prompt: generation.prompt,
      aspectRatio: generation.aspectRatio,
      expandPrompt: generation.expandPrompt,
      ...(generation.imageUrl ? { imageUrl: generation.imageUrl } : {}),
      ...(generation.imageEndUrl ? { imageEndUrl: generation.imageEndUrl } : {}),
      ...(parent?.providerJobId ? { extend: { generationId: parent.id, providerJobId: parent.providerJobId } } : {}),
    });
    await this.generations.recordSubmission(orgId, generationId, job.jobId, estimate(job.estimateWaitSeconds));
    return submission;
  }

  /** Asks the provider how the generation is doing; a completed one is stored with its event, whose id is returned. */
  async poll(orgId: string, generationId: string): Promise<VideoPollResult> {
    const generation = await this.load(orgId, generationId);
    if (generation.state === 'completed') return { state: 'completed', eventId: null };
    if (generation.state === 'failed') return { state: 'failed', reason: generation.failureReason ?? 'failed' };
    if (!generation.providerJobId) throw new Error(`generation ${generationId} was never submitted`);
    const status = await this.jobs().poll(generation.providerJobId);
    switch (status.state) {
      case 'pending':
      case 'processing':
        await this.generations.recordProgress(orgId, generationId, estimate(status.estimateWaitSeconds));
        return { state: status.state };
      case 'completed':
        return {
          state: 'completed',
          eventId: await this.generations.complete(orgId, generationId, status.result, generationEvent(this.config.publicUrl)),
        };
      case 'failed':
        return { state: 'failed', reason: status.reason };
    }
  }

  /**
   * Renders the generation in this process and stores it (with its event, whose id is returned); the
   * projection shows `processing` with the renderer's estimate meanwhile. Aborting `signal` kills the render.
   */
  async render(orgId: string, generationId: string, signal?: AbortSignal): Promise<VideoPollResult> {
    const renderer = this.renderer();
    const generation = await this.load(orgId, generationId);
    if (generation.state === 'completed') return { state: 'completed', eventId: null };
    if (generation.state === 'failed') return { state: 'failed', reason: generation.failureReason ?? 'failed' };
    const parent = generation.parentId ? await this.load(orgId, generation.parentId) : undefined;
    await this.generations.recordSubmission(orgId, generationId, generationId, null);
    let reportedAt = 0;
    const result = await renderer.render(
      {
        generationId,
        prompt: generation.prompt,
        aspectRatio: generation.aspectRatio,
        expandPrompt: generation.expandPrompt,
        ...(parent
          ? { extend: { generationId: parent.id, providerJobId: parent.providerJobId ?? parent.id, videoFile: this.mediaFile(parent.videoUrl) } }
          : {}),
      },
      {
        signal,
        onProgress: (seconds) => {
          if (Date.now() - reportedAt < PROGRESS_WRITE_MS) return;
          reportedAt = Date.now();
          this.generations
            .recordProgress(orgId, generationId, estimate(seconds))
            .catch((error: unknown) => this.logger.warn({ err: error }, 'could not record render progress'));
        },
      },
    );
    return { state: 'completed', eventId: await this.generations.complete(orgId, generationId, result, generationEvent(this.config.publicUrl)) };
  }

  /** Stops the provider's job of an unfinished generation (a render in the worker stops with its cancelled activity). */
  async stopAtProvider(orgId: string, generationId: string): Promise<void> {
    if (rendersInProcess(this.backend)) return;
    const generation = await this.load(orgId, generationId);
    if (generation.providerJobId && generation.state !== 'completed') await this.jobs().cancel(generation.providerJobId);
  }

  /**
   * → failed, with its tokens back. The refund is idempotent (one per debit), so a retried or repeated
   * failure refunds exactly once. Returns the id of its event to announce, or null.
   */
  async fail(orgId: string, generationId: string, reason: string): Promise<string | null> {
    const generation = await this.generations.findById(orgId, generationId);
    if (!generation || generation.state === 'completed') return null;
    if (generation.debitEntryId) await this.ledger.refund(orgId, generation.debitEntryId, `refund: ${reason}`.slice(0, 500));
    return this.generations.markFailed(orgId, generationId, reason, generationEvent(this.config.publicUrl));
  }

  /** The pending generation and its debit, in one transaction; null when a concurrent request with its key was first. */
  private async insertPaid(
    orgId: string,
    request: GenerationRequest,
    parentId: string | null,
    idempotencyKey: string | null,
    requestHash: string,
  ): Promise<VideoGeneration | null> {
    const cost = this.config.videoTokenCost;
    try {
      return await this.transactions.run(async (manager) => {
        const generation = await this.generations.insertPending(manager, {
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
        });
        if (!generation) return null;
        const reason = parentId ? 'video extension' : 'video generation';
        const debit = await this.ledger.debitWithin(manager, orgId, cost, { type: 'video_generation', id: generation.id }, reason);
        await this.generations.recordDebit(manager, orgId, generation.id, debit.id);
        return { ...generation, debitEntryId: debit.id };
      });
    } catch (error) {
      if (error instanceof InsufficientTokensError) throw new PylonError(ErrorCode.InsufficientTokens, `a generation costs ${cost} tokens`);
      throw error;
    }
  }

  private async assertExtendable(orgId: string, parentId: string): Promise<void> {
    const parent = await this.generations.findById(orgId, parentId);
    if (!parent) throw PylonError.notFound('no such generation');
    if (parent.state !== 'completed') {
      throw new PylonError(ErrorCode.GenerationNotCompleted, `only a completed generation can be extended; this one is ${parent.state}`);
    }
  }

  private async startWorkflow(generation: VideoGeneration): Promise<void> {
    await this.workflows.start({
      workflowType: WORKFLOW_TYPES.videoGeneration,
      workflowId: videoWorkflowId(generation.id),
      args: [{ generationId: generation.id, orgId: generation.orgId }],
      orgId: generation.orgId,
      fairnessWeight: await this.limits.dispatchWeight(generation.orgId),
      resourceId: generation.id,
      summary: `${generation.parentId ? 'Video extension' : 'Video generation'} ${generation.id}`,
    });
  }

  private jobs(): VideoProvider {
    if (rendersInProcess(this.backend))
      throw new Error(`the ${this.backend.name} video provider renders in the worker; it has no jobs to submit or poll`);
    return this.backend;
  }

  private renderer(): VideoRenderer {
    if (!rendersInProcess(this.backend))
      throw new Error(`the ${this.backend.name} video provider makes videos as remote jobs; it renders nothing here`);
    return this.backend;
  }

  /** The file of a video this deployment rendered (`/media/videos/…`), or undefined for one it did not. */
  private mediaFile(videoUrl: string | null): string | undefined {
    return videoUrl?.startsWith('/media/') ? join(this.config.mediaDir, videoUrl.slice('/media/'.length)) : undefined;
  }

  private async load(orgId: string, generationId: string): Promise<VideoGeneration> {
    const generation = await this.generations.findById(orgId, generationId);
    if (!generation) throw new GenerationNotFoundError(`generation ${generationId} does not exist`);
    return generation;
  }
}

function estimate(seconds: number | undefined): string | null {
  return seconds === undefined ? null : String(Math.max(0, Math.round(seconds)));
}
