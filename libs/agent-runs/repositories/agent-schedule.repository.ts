import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { AgentSchedule, Page, PageRequest, paginate } from '@pylon/db';

/** What a PATCH may change of a schedule. */
export type AgentScheduleChanges = Partial<Pick<AgentSchedule, 'input' | 'cron' | 'everySeconds' | 'timezone' | 'overlap' | 'paused'>>;

/** Agent schedules, the projection the API answers from. Every method takes the organisation. */
@Injectable()
export class AgentScheduleRepository {
  constructor(private readonly db: DataSource) {}

  private get schedules() {
    return this.db.getRepository(AgentSchedule);
  }

  /** False when a schedule with that idempotency key already exists (nothing written). */
  async insert(orgId: string, schedule: Omit<AgentSchedule, 'orgId' | 'registered'>): Promise<boolean> {
    const rows = (await this.db.query(
      `INSERT INTO agent_schedules
         (id, org_id, agent_version_id, input, cron, every_seconds, timezone, overlap, paused, registered, idempotency_key, request_hash, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, false, $10, $11, $12, $13)
       ON CONFLICT DO NOTHING RETURNING id`,
      [
        schedule.id,
        orgId,
        schedule.agentVersionId,
        schedule.input,
        schedule.cron,
        schedule.everySeconds,
        schedule.timezone,
        schedule.overlap,
        schedule.paused,
        schedule.idempotencyKey,
        schedule.requestHash,
        schedule.createdAt,
        schedule.updatedAt,
      ],
    )) as unknown[];
    return rows.length > 0;
  }

  /** Its Temporal Schedule exists. */
  async markRegistered(orgId: string, scheduleId: string): Promise<void> {
    await this.schedules.update({ orgId, id: scheduleId }, { registered: true });
  }

  findById(orgId: string, scheduleId: string): Promise<AgentSchedule | null> {
    return this.schedules.findOneBy({ orgId, id: scheduleId });
  }

  findByIdempotencyKey(orgId: string, idempotencyKey: string): Promise<AgentSchedule | null> {
    return this.schedules.findOneBy({ orgId, idempotencyKey });
  }

  list(orgId: string, page: PageRequest): Promise<Page<AgentSchedule>> {
    return paginate(this.schedules.createQueryBuilder('schedule').where('schedule.org_id = :orgId', { orgId }), page);
  }

  /** The schedule after the changes, or null when it is not the organisation's. */
  async update(orgId: string, scheduleId: string, changes: AgentScheduleChanges): Promise<AgentSchedule | null> {
    await this.schedules.update({ orgId, id: scheduleId }, { ...changes, updatedAt: new Date() });
    return this.findById(orgId, scheduleId);
  }

  /** False when it is not the organisation's. */
  async delete(orgId: string, scheduleId: string): Promise<boolean> {
    const [row] = (await this.db.query(
      `WITH deleted AS (DELETE FROM agent_schedules WHERE id = $1 AND org_id = $2 RETURNING id) SELECT count(*)::int AS deleted FROM deleted`,
      [scheduleId, orgId],
    )) as Array<{ deleted: number }>;
    return row!.deleted > 0;
  }
}
