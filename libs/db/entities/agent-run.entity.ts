import { Column, Entity } from 'typeorm';
import { ChangingResource } from './org-owned';
import type { RunStatus } from '@pylon/contracts';

/** The API's read model of a run; the agent-run workflow moves it forward through activities. */
@Entity({ name: 'agent_runs' })
export class AgentRun extends ChangingResource {
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
}
