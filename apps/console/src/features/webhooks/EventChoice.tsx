import type { Schemas } from '../../api/client';

export type WebhookEvent = NonNullable<Schemas['CreateWebhookEndpointRequest']['events']>[number];

export const WEBHOOK_EVENTS: WebhookEvent[] = [
  'agent_run.succeeded',
  'agent_run.failed',
  'knowledge_document.ready',
  'knowledge_document.failed',
  'video_generation.completed',
  'video_generation.failed',
];

/** The events an endpoint subscribes to, as checkboxes (none ticked: every event). */
export function EventChoice({ chosen, onChange }: { chosen: WebhookEvent[]; onChange: (events: WebhookEvent[]) => void }) {
  return (
    <fieldset>
      <legend>Events (none checked: every event)</legend>
      {WEBHOOK_EVENTS.map((event) => (
        <label key={event} className="check">
          <input
            type="checkbox"
            checked={chosen.includes(event)}
            onChange={(change) => onChange(change.target.checked ? [...chosen, event] : chosen.filter((e) => e !== event))}
          />
          <code>{event}</code>
        </label>
      ))}
    </fieldset>
  );
}
