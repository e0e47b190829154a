import { Injectable } from '@nestjs/common';
import { DataSource, In, QueryFailedError } from 'typeorm';
import { VideoGeneration } from '../entities';
import { recordEvent, unannouncedEvent, type NewEvent } from './event-recorder';
import { LedgerRepository } from './ledger.repository';
import { TOUCH_UPDATED_AT, returnedRows } from './sql';

export type NewVideoGeneration = Pick<
  VideoGeneration,
  'id' | 'orgId' | 'parentId' | 'prompt' | 'aspectRatio' | 'expandPrompt' | 'imageUrl' | 'imageEndUrl' | 'provider' | 'idempotencyKey' | 'requestHash' | 'createdAt'
>;

export interface VideoOutcome {
  videoUrl: string;
  thumbnailUrl: string;
  width: number;
  height: number;
}

export type GenerationEventFactory = (generation: VideoGeneration) => Omit<NewEvent, 'orgId' | 'resourceId'>;

/** Raised when a concurrent request with the same Idempotency-Key created the generation first. */
export class DuplicateIdempotencyKeyError extends Error {}


/** Video generations. The paid ones are created together with their debit, in one transaction. */
@Injectable()
export class VideoGenerationRepository {
  constructor(
    private readonly db: DataSource,
    private readonly ledger: LedgerRepository,
  ) {}

  private get generations() {
    return this.db.getRepository(VideoGeneration);
  }

  /** Debits `cost` and inserts the pending generation, or neither (InsufficientTokensError). */
  async createWithDebit(generation: NewVideoGeneration, cost: number): Promise<VideoGeneration> {
    try {
      return await this.db.transaction(async (manager) => {
        const debit = await this.ledger.debit(manager, generation.orgId, cost, { type: 'video_generation', id: generation.id }, generation.parentId ? 'video extension' : 'video generation');
        const row = manager.create(VideoGeneration, {
          ...generation,
          state: 'pending',
          providerJobId: null,
          estimateWaitSeconds: null,
          liked: null,
          videoUrl: null,
          thumbnailUrl: null,
          width: null,
          height: null,
          failureReason: null,
          debitEntryId: debit.id,
          updatedAt: generation.createdAt,
        });
        return manager.save(VideoGeneration, row);
      });
    } catch (error) {
      if (error instanceof QueryFailedError && (error.driverError as { code?: string }).code === '23505' && generation.idempotencyKey) {
        throw new DuplicateIdempotencyKeyError();
      }
      throw error;
    }
  }

  findById(orgId: string, generationId: string): Promise<VideoGeneration | null> {
    return this.generations.findOneBy({ id: generationId, orgId });
  }

  /** The organisation's generations among `ids`; unknown and other organisations' ids are left out. */
  findByIds(orgId: string, ids: string[]): Promise<VideoGeneration[]> {
    return ids.length ? this.generations.findBy({ orgId, id: In(ids) }) : Promise.resolve([]);
  }

  findByIdempotencyKey(orgId: string, idempotencyKey: string): Promise<VideoGeneration | null> {
    return this.generations.findOneBy({ orgId, idempotencyKey });
  }

  /** pending → processing with the provider's job id; an unfinished generation keeps moving forward only. */
  async recordSubmission(orgId: string, generationId: string, providerJobId: string, estimateWaitSeconds: string | null): Promise<void> {
    await this.db.query(
      `UPDATE video_generations SET state = 'processing', provider_job_id = $3, estimate_wait_seconds = $4, ${TOUCH_UPDATED_AT}
        WHERE id = $1 AND org_id = $2 AND state IN ('pending', 'processing')`,
      [generationId, orgId, providerJobId, estimateWaitSeconds],
    );
  }

  async recordProgress(orgId: string, generationId: string, estimateWaitSeconds: string | null): Promise<void> {
    await this.db.query(
      `UPDATE video_generations SET state = 'processing', estimate_wait_seconds = $3, ${TOUCH_UPDATED_AT}
        WHERE id = $1 AND org_id = $2 AND state IN ('pending', 'processing') AND estimate_wait_seconds IS DISTINCT FROM $3`,
      [generationId, orgId, estimateWaitSeconds],
    );
  }

  /** → completed with the video, and its event, in one transaction; a final generation stays as it is. */
  async complete(orgId: string, generationId: string, video: VideoOutcome, describe: GenerationEventFactory): Promise<string | null> {
    return this.db.transaction(async (manager) => {
      const updated = await manager.query(
        `UPDATE video_generations
            SET state = 'completed', video_url = $3, thumbnail_url = $4, width = $5, height = $6, estimate_wait_seconds = NULL, ${TOUCH_UPDATED_AT}
          WHERE id = $1 AND org_id = $2 AND state IN ('pending', 'processing') RETURNING id`,
        [generationId, orgId, video.videoUrl, video.thumbnailUrl, video.width, video.height],
      );
      if (returnedRows(updated).length === 0) return unannouncedEvent(manager, orgId, generationId);
      const generation = (await manager.findOneBy(VideoGeneration, { id: generationId, orgId }))!;
      return recordEvent(manager, { orgId, resourceId: generationId, ...describe(generation) });
    });
  }

  /**
   * → failed, with its tokens back. The refund is idempotent (one per debit), so a retried or repeated
   * failure refunds exactly once; the state change and its event are one transaction.
   */
  async failAndRefund(orgId: string, generationId: string, reason: string, describe: GenerationEventFactory): Promise<string | null> {
    const generation = await this.findById(orgId, generationId);
    if (!generation || generation.state === 'completed') return null;
    if (generation.debitEntryId) await this.ledger.refund(orgId, generation.debitEntryId, `refund: ${reason}`.slice(0, 500));
    return this.db.transaction(async (manager) => {
      const updated = await manager.query(
        `UPDATE video_generations SET state = 'failed', failure_reason = $3, estimate_wait_seconds = NULL, ${TOUCH_UPDATED_AT}
          WHERE id = $1 AND org_id = $2 AND state IN ('pending', 'processing') RETURNING id`,
        [generationId, orgId, reason.slice(0, 1000)],
      );
      if (returnedRows(updated).length === 0) return unannouncedEvent(manager, orgId, generationId);
      const failed = (await manager.findOneBy(VideoGeneration, { id: generationId, orgId }))!;
      return recordEvent(manager, { orgId, resourceId: generationId, ...describe(failed) });
    });
  }
}
