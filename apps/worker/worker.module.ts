import { Module } from '@nestjs/common';
import { ConfigModule } from '@pylon/config';
import { DbModule } from '@pylon/db';
import { LlmModule } from '@pylon/llm';
import { AgentRunActivitiesImpl } from './activities/agent-run.activities';

/** The worker's application context: no HTTP server, just what the activities need. */
@Module({
  imports: [ConfigModule, DbModule, LlmModule],
  providers: [AgentRunActivitiesImpl],
})
export class WorkerModule {}
