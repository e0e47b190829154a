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

/** Records an event inside the caller's transaction, so the event exists exactly when the change does. */
export async function recordEvent(manager: EntityManager, event: NewEvent): Promise<PylonEvent> {
  const row = manager.create(PylonEvent, { id: randomUUID(), ...event, createdAt: new Date() });
  return manager.save(PylonEvent, row);
}
