import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { ScheduleOverlap } from '@pylon/contracts';

/** The API's read model of an agent schedule; its Temporal Schedule `agent-schedule:<id>` fires it. */
@Entity({ name: 'agent_schedules' })
export class AgentSchedule {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'org_id' })
  orgId!: string;

  @Column('uuid', { name: 'agent_version_id' })
  agentVersionId!: string;

  @Column('text')
  input!: string;

  /** Exactly one of `cron` and `everySeconds` is set. */
  @Column('text', { nullable: true })
  cron!: string | null;

  @Column('integer', { name: 'every_seconds', nullable: true })
  everySeconds!: number | null;

  /** IANA time zone of the cron expression. */
  @Column('text')
  timezone!: string;

  @Column('text')
  overlap!: ScheduleOverlap;

  @Column('boolean')
  paused!: boolean;

  /** Whether its Temporal Schedule was created (a create retried under its Idempotency-Key creates it when not). */
  @Column('boolean')
  registered!: boolean;

  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey!: string | null;

  @Column('text', { name: 'request_hash', nullable: true })
  requestHash!: string | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}
