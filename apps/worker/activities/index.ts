import type { INestApplicationContext } from '@nestjs/common';
import type { AgentRunActivities, KnowledgeIngestionActivities, VideoActivities, WebhookActivities } from '@pylon/contracts';
import { AgentRunActivitiesImpl } from './agent-run.activities';
import { KnowledgeIngestionActivitiesImpl } from './knowledge-ingestion.activities';
import { VideoActivitiesImpl } from './video.activities';
import { WebhookActivitiesImpl } from './webhook.activities';

/** Bound methods of an activity class, by name: what Temporal's Worker expects. */
function bindAll<T extends object>(instance: T, names: ReadonlyArray<keyof T>): T {
  return Object.fromEntries(names.map((name) => [name, (instance[name] as (...args: unknown[]) => unknown).bind(instance)])) as T;
}

/** Every activity the workflows call, bound to its Nest-managed instance. */
export function buildActivities(app: INestApplicationContext): AgentRunActivities & KnowledgeIngestionActivities & VideoActivities & WebhookActivities {
  return {
    ...bindAll<AgentRunActivities>(app.get(AgentRunActivitiesImpl), [
      'markRunRunning',
      'generateTurn',
      'runTool',
      'markRunSucceeded',
      'markRunFailed',
    ]),
    ...bindAll<KnowledgeIngestionActivities>(app.get(KnowledgeIngestionActivitiesImpl), [
      'prepareChunks',
      'embedChunkBatch',
      'publishDocument',
      'markDocumentFailed',
    ]),
    ...bindAll<VideoActivities>(app.get(VideoActivitiesImpl), ['submitVideo', 'pollVideo', 'failVideo']),
    ...bindAll<WebhookActivities>(app.get(WebhookActivitiesImpl), ['planDeliveries', 'attemptDelivery', 'markDeliveryFailed']),
  };
}
