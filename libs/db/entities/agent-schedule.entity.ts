import { Column, Entity } from 'typeorm';
import { ChangingResource } from './org-owned';
import type { ScheduleOverlap } from '@pylon/contracts';

/** The API's read model of an agent schedule; its Temporal Schedule `agent-schedule:<id>` fires it. */
@Entity({ name: 'agent_schedules' })
export class AgentSchedule extends ChangingResource {
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
}
