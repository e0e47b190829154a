import type { INestApplicationContext } from '@nestjs/common';
import type {
  AgentRunActivities,
  AgentScheduleActivities,
  ConversationActivities,
  KnowledgeIngestionActivities,
  KnowledgeBatchActivities,
  KnowledgeVectorIndexActivities,
  McpToolActivities,
  VideoActivities,
  WebhookActivities,
  WorkKind,
} from '@pylon/contracts';
import { AgentRunActivitiesImpl } from './agent-run.activities';
import { AgentScheduleActivitiesImpl } from './agent-schedule.activities';
import { ConversationActivitiesImpl } from './conversation.activities';
import { KnowledgeIngestionActivitiesImpl } from './knowledge-ingestion.activities';
import { KnowledgeBatchActivitiesImpl } from './knowledge-batch.activities';
import { McpToolActivitiesImpl } from './mcp-tool.activities';
import { KnowledgeVectorIndexActivitiesImpl } from './knowledge-vector-index.activities';
import { VideoActivitiesImpl } from './video.activities';
import { WebhookActivitiesImpl } from './webhook.activities';

type Activities = Record<string, (...args: never[]) => Promise<unknown>>;

/** Bound methods of an activity class, by name: what Temporal's Worker expects. */
function bindAll<T extends object>(instance: T, names: ReadonlyArray<keyof T>): Activities {
  return Object.fromEntries(names.map((name) => [name, (instance[name] as (...args: unknown[]) => Promise<unknown>).bind(instance)]));
}

/** The activities of one kind of work, bound to their Nest-managed instances, for that kind's task queue. */
export function activitiesFor(app: INestApplicationContext, kind: WorkKind): Activities {
  switch (kind) {
    case 'agent-runs':
      return {
        ...bindAll<AgentRunActivities>(app.get(AgentRunActivitiesImpl), [
          'takeTurn',
          'repairAnswer',
          'runTool',
          'requireAction',
          'recordAnswer',
          'expireAction',
          'markRunFailed',
          'purgeExpiredRunEvents',
        ]),
        ...bindAll<McpToolActivities>(app.get(McpToolActivitiesImpl), ['listMcpTools', 'callMcpTool']),
        ...bindAll<AgentScheduleActivities>(app.get(AgentScheduleActivitiesImpl), ['fireSchedule']),
        ...bindAll<Pick<ConversationActivities, 'numberTurn'>>(app.get(ConversationActivitiesImpl), ['numberTurn']),
      };
    case 'knowledge':
      return {
        ...bindAll<KnowledgeIngestionActivities>(app.get(KnowledgeIngestionActivitiesImpl), [
          'extractDocumentText',
          'ingestInOneStep',
          'prepareChunks',
          'embedChunkBatch',
          'publishDocument',
          'markDocumentFailed',
        ]),
        ...bindAll<KnowledgeBatchActivities>(app.get(KnowledgeBatchActivitiesImpl), ['batchDocuments', 'finishBatch']),
        ...bindAll<KnowledgeVectorIndexActivities>(app.get(KnowledgeVectorIndexActivitiesImpl), ['buildVectorIndex', 'markVectorIndexFailed']),
      };
    case 'video':
      return bindAll<VideoActivities>(app.get(VideoActivitiesImpl), ['submitVideo', 'pollVideo', 'renderVideo', 'failVideo', 'cancelVideo']);
    case 'webhooks':
      return bindAll<WebhookActivities>(app.get(WebhookActivitiesImpl), [
        'deliverEvent',
        'attemptEvent',
        'retryDeliveries',
        'markDeliveriesFailed',
        'attemptDelivery',
      ]);
  }
}
