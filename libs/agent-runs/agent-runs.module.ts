import { Module } from '@nestjs/common';
import { KnowledgeModule } from '@pylon/knowledge';
import { LimitsModule } from '@pylon/limits';
import { LlmModule } from '@pylon/llm';
import { AgentRunsService } from './agent-runs.service';
import { RunEventsService } from './run-events.service';
import { RequiredActionsService } from './required-actions.service';
import { ConversationsService } from './conversations.service';
import { AgentSchedulesService } from './agent-schedules.service';

/** Agent runs' rules, for the API and the worker. Needs the global config, database and Temporal client modules. */
@Module({
  imports: [LlmModule, KnowledgeModule, LimitsModule],
  providers: [AgentRunsService, RunEventsService, RequiredActionsService, ConversationsService, AgentSchedulesService],
  exports: [AgentRunsService, RunEventsService, RequiredActionsService, ConversationsService, AgentSchedulesService],
})
export class AgentRunsModule {}
