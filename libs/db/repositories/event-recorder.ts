import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { EventType } from '@pylon/contracts';
import { prepared } from '../prepared-statements';

export interface NewEvent {
  orgId: string;
  type: EventType;
  resourceId: string;
  data: Record<string, unknown>;
}

/**
 * The common table expressions that record an event and a pending delivery to every enabled endpoint
 * subscribed to it, for a statement that also makes the change the event reports. `rows` is a query
 * giving the event's (id, org_id, type, resource_id, data, created_at); the statement can then read
 * how many deliveries were planned with `SELECT count(*) FROM planned`.
 */
export function eventWithDeliveries(rows: string): string {
  return `event AS (
       INSERT INTO events (id, org_id, type, resource_id, data, created_at) ${rows} RETURNING id, org_id, type, created_at
     ), planned AS (
       INSERT INTO webhook_deliveries (id, org_id, endpoint_id, event_id, event_type, status, created_at, updated_at)
       SELECT gen_random_uuid(), e.org_id, e.id, event.id, event.type, 'pending', event.created_at, event.created_at
         FROM event, webhook_endpoints e
        WHERE e.org_id = event.org_id AND e.enabled AND (e.events IS NULL OR event.type = ANY (e.events))
       RETURNING 1
     )`;
}

const RECORD_EVENT = prepared(
  `WITH ${eventWithDeliveries('VALUES ($1::uuid, $2::uuid, $3, $4::uuid, $5::jsonb, clock_timestamp())')}
   SELECT count(*)::int AS planned FROM planned`,
);

/**
 * Records an event inside the caller's transaction, together with its deliveries (one statement), so
 * the event and everything owed for it exist exactly when the change does. Returns the event's id when
 * it has deliveries to make (something to announce), else null.
 */
export async function recordEvent(manager: EntityManager, event: NewEvent): Promise<string | null> {
  const eventId = randomUUID();
  const parameters = [eventId, event.orgId, event.type, event.resourceId, JSON.stringify(event.data)];
  const [row] = (await manager.query(RECORD_EVENT, parameters)) as Array<{ planned: number }>;
  return row!.planned > 0 ? eventId : null;
}

/**
 * For a transition that had already happened (a retried activity whose first try committed): the
 * resource's event that still has deliveries never attempted, so announcing it again loses nothing.
 */
export async function unannouncedEvent(manager: EntityManager, orgId: string, resourceId: string): Promise<string | null> {
  const rows = (await manager.query(
    `SELECT ev.id FROM events ev
      WHERE ev.org_id = $1 AND ev.resource_id = $2
        AND EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = ev.id AND d.status = 'pending' AND d.attempt_count = 0)
      ORDER BY ev.created_at DESC LIMIT 1`,
    [orgId, resourceId],
  )) as Array<{ id: string }>;
  return rows[0]?.id ?? null;
}
