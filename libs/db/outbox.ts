import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import type { EventType } from '@pylon/contracts';
import { parameter, statement, type Statement } from './statement';

export interface NewEvent {
  orgId: string;
  type: EventType;
  resourceId: string;
  data: Record<string, unknown>;
}

/** The webhook event of a row's new state: its type and data (its organisation and resource are the row's). */
export type DescribedEvent = Omit<NewEvent, 'orgId' | 'resourceId'>;

/** What the outbox's own statement writes: an event of the resource's change, under its id. */
interface EventInsert {
  id: string;
  orgId: string;
  resourceId: string;
  event: DescribedEvent;
}

/** Describes the event of a row's new state, from the row as it is then. */
export type EventFactory<Row> = (row: Row) => DescribedEvent;

/** What `recordChange` hands its write: the new event's id, and how to record it in the write's transaction. */
export interface EventWrite {
  id: string;
  /** Records the event with its deliveries (one statement); how many deliveries it planned. */
  record(event: DescribedEvent): Promise<number>;
}

/**
 * Which of its organisation's webhook endpoints an event is delivered to: a SQL condition on the endpoint's
 * row and the event's row (its `type`), given their aliases. The webhooks feature defines it (libs/webhooks).
 */
export type SubscriptionFilter = (aliases: { endpoint: string; event: string }) => string;

/** The injection token of the SubscriptionFilter the outbox plans deliveries with (see DbModule.forRoot). */
export const SUBSCRIPTION_FILTER = Symbol('SubscriptionFilter');

/**
 * The events of changes and the deliveries they owe, written with the change itself, so the event and
 * everything owed for it exist exactly when the change does. The one way a repository records an event.
 */
@Injectable()
export class Outbox {
  private readonly insertEvent: Statement<EventInsert>;

  constructor(@Inject(SUBSCRIPTION_FILTER) private readonly subscribed: SubscriptionFilter) {
    this.insertEvent = statement<EventInsert>()(
      {
        id: parameter('uuid', (insert) => insert.id),
        orgId: parameter('uuid', (insert) => insert.orgId),
        type: parameter('text', (insert) => insert.event.type),
        resourceId: parameter('uuid', (insert) => insert.resourceId),
        data: parameter('jsonb', (insert) => JSON.stringify(insert.event.data)),
      },
      (p) => `WITH ${this.withDeliveries(`VALUES (${p.id}, ${p.orgId}, ${p.type}, ${p.resourceId}, ${p.data}, clock_timestamp())`)}
   SELECT count(*)::int AS planned FROM planned`,
      { prepare: true },
    );
  }

  /**
   * The common table expressions that record an event and a pending delivery to every endpoint of its
   * organisation the subscription filter selects, for a statement that also makes the change the event
   * reports. `rows` is a query giving the event's (id, org_id, type, resource_id, data, created_at); the
   * statement can then read how many deliveries were planned with `SELECT count(*) FROM planned`.
   */
  withDeliveries(rows: string): string {
    return `event AS (
       INSERT INTO events (id, org_id, type, resource_id, data, created_at) ${rows} RETURNING id, org_id, type, created_at
     ), planned AS (
       INSERT INTO webhook_deliveries (id, org_id, endpoint_id, event_id, event_type, status, created_at, updated_at)
       SELECT gen_random_uuid(), e.org_id, e.id, event.id, event.type, 'pending', event.created_at, event.created_at
         FROM event, webhook_endpoints e
        WHERE e.org_id = event.org_id AND ${this.subscribed({ endpoint: 'e', event: 'event' })}
       RETURNING 1
     )`;
  }

  /**
   * Records a change with its event. `write` makes the change and records the event under `event.id`,
   * in the same statement (withDeliveries) or with `event.record` in the same transaction, and answers
   * how many deliveries the event planned, or null when the change had already happened (a retried step).
   * The id of the event to announce: the new event when it owes deliveries; for a change already made,
   * the resource's event whose deliveries were never attempted (so announcing it again loses nothing);
   * else null.
   */
  async recordChange(
    manager: EntityManager,
    orgId: string,
    resourceId: string,
    write: (event: EventWrite) => Promise<number | null>,
  ): Promise<string | null> {
    const id = randomUUID();
    const record = async (event: DescribedEvent) => {
      const insert = this.insertEvent;
      const [row] = (await manager.query(insert.text, insert.values({ id, orgId, resourceId, event }))) as Array<{ planned: number }>;
      return row!.planned;
    };
    const planned = await write({ id, record });
    if (planned === null) return this.unannouncedEvent(manager, orgId, resourceId);
    return planned > 0 ? id : null;
  }

  /** The resource's latest event that still has deliveries never attempted, else null (see recordChange). */
  async unannouncedEvent(manager: EntityManager, orgId: string, resourceId: string): Promise<string | null> {
    const rows = (await manager.query(
      `SELECT ev.id FROM events ev
        WHERE ev.org_id = $1 AND ev.resource_id = $2
          AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id AND d.status = 'pending' AND d.attempt_count = 0)
        ORDER BY ev.created_at DESC LIMIT 1`,
      [orgId, resourceId],
    )) as Array<{ id: string }>;
    return rows[0]?.id ?? null;
  }
}
