import { Module } from '@nestjs/common';
import { ConfigModule } from '@pylon/config';
import { DbModule } from '@pylon/db';
import { KnowledgeModule } from '@pylon/knowledge';
import { LlmModule } from '@pylon/llm';
import { AgentRunActivitiesImpl } from './activities/agent-run.activities';
import { KnowledgeIngestionActivitiesImpl } from './activities/knowledge-ingestion.activities';

/** The worker's application context: no HTTP server, just what the activities need. */
@Module({
  imports: [ConfigModule, DbModule, LlmModule, KnowledgeModule],
  providers: [AgentRunActivitiesImpl, KnowledgeIngestionActivitiesImpl],
})
export class WorkerModule {}
