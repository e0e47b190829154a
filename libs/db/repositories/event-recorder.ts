import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { EventType } from '@pylon/contracts';
import { returnedRows } from './sql';

export interface NewEvent {
  orgId: string;
  type: EventType;
  resourceId: string;
  data: Record<string, unknown>;
}

/**
 * Records an event inside the caller's transaction, together with a pending delivery to every enabled
 * endpoint subscribed to it (one statement), so the event and everything owed for it exist exactly when
 * the change does. Returns the event's id when it has deliveries to make (something to announce), else null.
 */
export async function recordEvent(manager: EntityManager, event: NewEvent): Promise<string | null> {
  const eventId = randomUUID();
  const planned = (await manager.query(
    `WITH event AS (
       INSERT INTO events (id, org_id, type, resource_id, data, created_at) VALUES ($1, $2, $3, $4, $5, clock_timestamp()) RETURNING id, created_at
     )
     INSERT INTO webhook_deliveries (id, org_id, endpoint_id, event_id, event_type, status, created_at, updated_at)
     SELECT gen_random_uuid(), e.org_id, e.id, event.id, $3, 'pending', event.created_at, event.created_at
       FROM event, webhook_endpoints e
      WHERE e.org_id = $2 AND e.enabled AND (e.events IS NULL OR $3 = ANY (e.events))
     RETURNING id`,
    [eventId, event.orgId, event.type, event.resourceId, JSON.stringify(event.data)],
  )) as unknown[];
  return returnedRows(planned).length > 0 ? eventId : null;
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
