import type { PylonEvent } from '@pylon/db';

/** What a receiver gets: `{id, type, created_at, data}`, `data` being the resource as the API returns it. */
export function eventEnvelope(event: PylonEvent): string {
  return JSON.stringify({ id: event.id, type: event.type, created_at: event.createdAt.toISOString(), data: event.data });
}
