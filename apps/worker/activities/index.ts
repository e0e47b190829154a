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

/**
 * Bound methods of an activity class, by name: what Temporal's Worker expects. Every activity of the
 * interface must be named, so one added to a contract and left out here fails to compile.
 */
function bindAll<T extends object>(instance: T, names: { readonly [K in keyof T]-?: true }): Activities {
  return Object.fromEntries(
    (Object.keys(names) as Array<keyof T>).map((name) => [name, (instance[name] as (...args: unknown[]) => Promise<unknown>).bind(instance)]),
  );
}

/** The activities of one kind of work, bound to their Nest-managed instances, for that kind's task queue. */
export function activitiesFor(app: INestApplicationContext, kind: WorkKind): Activities {
  switch (kind) {
    case 'agent-runs':
      return {
        ...bindAll<AgentRunActivities>(app.get(AgentRunActivitiesImpl), {
          takeTurn: true,
          repairAnswer: true,
          runTool: true,
          requireAction: true,
          recordAnswer: true,
          recordModelFallback: true,
          expireAction: true,
          markRunFailed: true,
          purgeExpiredRunEvents: true,
        }),
        ...bindAll<McpToolActivities>(app.get(McpToolActivitiesImpl), { listMcpTools: true, callMcpTool: true }),
        ...bindAll<AgentScheduleActivities>(app.get(AgentScheduleActivitiesImpl), { fireSchedule: true }),
        ...bindAll<Pick<ConversationActivities, 'numberTurn'>>(app.get(ConversationActivitiesImpl), { numberTurn: true }),
      };
    case 'knowledge':
      return {
        ...bindAll<KnowledgeIngestionActivities>(app.get(KnowledgeIngestionActivitiesImpl), {
          extractDocumentText: true,
          ingestInOneStep: true,
          prepareChunks: true,
          embedChunkBatch: true,
          publishDocument: true,
          markDocumentFailed: true,
        }),
        ...bindAll<KnowledgeBatchActivities>(app.get(KnowledgeBatchActivitiesImpl), { batchDocuments: true, finishBatch: true }),
        ...bindAll<KnowledgeVectorIndexActivities>(app.get(KnowledgeVectorIndexActivitiesImpl), {
          buildVectorIndex: true,
          markVectorIndexFailed: true,
        }),
      };
    case 'video':
      return bindAll<VideoActivities>(app.get(VideoActivitiesImpl), {
        submitVideo: true,
        pollVideo: true,
        renderVideo: true,
        failVideo: true,
        cancelVideo: true,
      });
    case 'webhooks':
      return bindAll<WebhookActivities>(app.get(WebhookActivitiesImpl), {
        deliverEvent: true,
        attemptEvent: true,
        retryDeliveries: true,
        markDeliveriesFailed: true,
        attemptDelivery: true,
      });
  }
}
