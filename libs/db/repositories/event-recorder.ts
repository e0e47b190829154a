import { randomUUID } from 'node:crypto';
import type { EntityManager } from 'typeorm';
import type { EventType } from '@pylon/contracts';
import { PylonEvent } from '../entities';

export interface NewEvent {
  orgId: string;
  type: EventType;
  resourceId: string;
  data: Record<string, unknown>;
}

/**
 * Records an event inside the caller's transaction, together with a pending delivery to every enabled
 * endpoint subscribed to it, so the event and everything owed for it exist exactly when the change does.
 * Returns the event's id when it has deliveries to make (something to announce), otherwise null.
 */
export async function recordEvent(manager: EntityManager, event: NewEvent): Promise<string | null> {
  const row = manager.create(PylonEvent, { id: randomUUID(), ...event, createdAt: new Date() });
  await manager.save(PylonEvent, row);
  const planned = (await manager.query(
    `INSERT INTO webhook_deliveries (id, org_id, endpoint_id, event_id, event_type, status, created_at, updated_at)
     SELECT gen_random_uuid(), e.org_id, e.id, $1, $3, 'pending', clock_timestamp(), clock_timestamp()
       FROM webhook_endpoints e
      WHERE e.org_id = $2 AND e.enabled AND (e.events IS NULL OR $3 = ANY (e.events))
     RETURNING id`,
    [row.id, row.orgId, row.type],
  )) as unknown[];
  return planned.length > 0 ? row.id : null;
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
