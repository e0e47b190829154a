import { Column, Entity, PrimaryColumn } from 'typeorm';
import type { EventType } from '@pylon/contracts';

/** A fact recorded when work finishes, in the same transaction as the change it describes. */
@Entity({ name: 'events' })
export class PylonEvent {
  @PrimaryColumn('uuid')
  id!: string;

  @Column('uuid', { name: 'org_id' })
  orgId!: string;

  @Column('text')
  type!: EventType;

  @Column('uuid', { name: 'resource_id' })
  resourceId!: string;

  /** The resource as the API returns it. */
  @Column('jsonb')
  data!: Record<string, unknown>;

  @Column('timestamptz', { name: 'created_at' })
  createdAt!: Date;
}
