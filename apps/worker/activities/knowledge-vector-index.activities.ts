import { Injectable } from '@nestjs/common';
import type { KnowledgeVectorIndexActivities, VectorIndexOutcome } from '@pylon/contracts';
import { KnowledgeVectorIndexService } from '@pylon/knowledge';
import { heartbeating } from './heartbeating';

const HEARTBEAT_MS = 10_000;

/** The vector index workflow's activities: one call each into KnowledgeVectorIndexService. */
@Injectable()
export class KnowledgeVectorIndexActivitiesImpl implements KnowledgeVectorIndexActivities {
  constructor(private readonly vectorIndexes: KnowledgeVectorIndexService) {}

  buildVectorIndex({ orgId }: { orgId: string }): Promise<VectorIndexOutcome> {
    return heartbeating(HEARTBEAT_MS, () => this.vectorIndexes.build(orgId));
  }

  markVectorIndexFailed({ orgId, reason }: { orgId: string; reason: string }): Promise<void> {
    return this.vectorIndexes.markFailed(orgId, reason);
  }
}
