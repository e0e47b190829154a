import type { EventInput } from '@pylon/contracts';
import { announce } from './announce';

/** An event recorded by the API rather than by a workflow (a run cancelled before it started): deliver it. */
export async function webhookEventWorkflow(event: EventInput): Promise<void> {
  await announce(event.orgId, event.eventId);
}
