import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { RunStatus } from '@pylon/contracts';

/** The API's read model of a run; the agent-run workflow moves it forward through activities. */
@Entity({ name: 'agent_runs' })
export class AgentRun {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'org_id' })
  orgId!: string;

  @Column('uuid', { name: 'agent_version_id' })
  agentVersionId!: string;

  @Column('text')
  input!: string;

  @Column('text', { nullable: true })
  output!: string | null;

  @Column('text')
  status!: RunStatus;

  @Column('text', { nullable: true })
  error!: string | null;

  @Column('text', { name: 'idempotency_key', nullable: true })
  idempotencyKey!: string | null;

  /** SHA-256 of the create request, to tell a retry from a different request under the same key. */
  @Column('text', { name: 'request_hash', nullable: true })
  requestHash!: string | null;

  /** The conversation this run is a turn of, numbered by `conversationSeq` in the order turns were accepted. */
  @Column('uuid', { name: 'conversation_id', nullable: true })
  conversationId!: string | null;

  @Column('integer', { name: 'conversation_seq', nullable: true })
  conversationSeq!: number | null;

  /** The schedule whose firing created the run, and the firing's nominal time. */
  @Column('uuid', { name: 'schedule_id', nullable: true })
  scheduleId!: string | null;

  @Column('timestamptz', { name: 'scheduled_at', nullable: true })
  scheduledAt!: Date | null;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;

  @Column('timestamptz', { name: 'updated_at' })
  updatedAt!: Date;
}
