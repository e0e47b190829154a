import { Injectable } from '@nestjs/common';
import { DataSource, In, type EntityManager } from 'typeorm';
import { VideoGeneration, Outbox, type EventFactory, TOUCH_UPDATED_AT, returnedRows } from '@pylon/db';

export type NewVideoGeneration = Pick<
  VideoGeneration,
  | 'id'
  | 'orgId'
  | 'parentId'
  | 'prompt'
  | 'aspectRatio'
  | 'expandPrompt'
  | 'imageUrl'
  | 'imageEndUrl'
  | 'provider'
  | 'idempotencyKey'
  | 'requestHash'
  | 'createdAt'
>;

export interface VideoOutcome {
  videoUrl: string;
  thumbnailUrl: string;
  width: number;
  height: number;
}

/** Video generations: rows and their events only. Paying for them is the video service's (libs/video). */
@Injectable()
export class VideoGenerationRepository {
  constructor(
    private readonly db: DataSource,
    private readonly outbox: Outbox,
  ) {}

  private get generations() {
    return this.db.getRepository(VideoGeneration);
  }

  /** Inserts the pending generation in the caller's transaction; null when its Idempotency-Key is taken (ON CONFLICT DO NOTHING). */
  async insertPending(manager: EntityManager, generation: NewVideoGeneration): Promise<VideoGeneration | null> {
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
      debitEntryId: null,
      updatedAt: generation.createdAt,
    });
    const inserted = await manager.createQueryBuilder().insert().into(VideoGeneration).values(row).orIgnore().returning(['id']).execute();
    return (inserted.raw as unknown[]).length > 0 ? row : null;
  }

  /** Ties a generation to the debit that paid for it, in the caller's transaction. */
  async recordDebit(manager: EntityManager, orgId: string, generationId: string, debitEntryId: string): Promise<void> {
    await manager.query(`UPDATE video_generations SET debit_entry_id = $3 WHERE id = $1 AND org_id = $2`, [generationId, orgId, debitEntryId]);
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
  async complete(orgId: string, generationId: string, video: VideoOutcome, describe: EventFactory<VideoGeneration>): Promise<string | null> {
    return this.db.transaction(async (manager) => {
      const updated = await manager.query(
        `UPDATE video_generations
            SET state = 'completed', video_url = $3, thumbnail_url = $4, width = $5, height = $6, estimate_wait_seconds = NULL, ${TOUCH_UPDATED_AT}
          WHERE id = $1 AND org_id = $2 AND state IN ('pending', 'processing') RETURNING id`,
        [generationId, orgId, video.videoUrl, video.thumbnailUrl, video.width, video.height],
      );
      return this.outbox.recordChange(manager, orgId, generationId, async (event) => {
        if (returnedRows(updated).length === 0) return null;
        return event.record(describe((await manager.findOneBy(VideoGeneration, { id: generationId, orgId }))!));
      });
    });
  }

  /** → failed, and its event, in one transaction; a final generation stays as it is. */
  async markFailed(orgId: string, generationId: string, reason: string, describe: EventFactory<VideoGeneration>): Promise<string | null> {
    return this.db.transaction(async (manager) => {
      const updated = await manager.query(
        `UPDATE video_generations SET state = 'failed', failure_reason = $3, estimate_wait_seconds = NULL, ${TOUCH_UPDATED_AT}
          WHERE id = $1 AND org_id = $2 AND state IN ('pending', 'processing') RETURNING id`,
        [generationId, orgId, reason.slice(0, 1000)],
      );
      return this.outbox.recordChange(manager, orgId, generationId, async (event) => {
        if (returnedRows(updated).length === 0) return null;
        return event.record(describe((await manager.findOneBy(VideoGeneration, { id: generationId, orgId }))!));
      });
    });
  }
}
