import { Module } from '@nestjs/common';
import { KnowledgeModule } from '@pylon/knowledge';
import { LedgerModule } from '@pylon/ledger';
import { LimitsModule } from '@pylon/limits';
import { LlmModule } from '@pylon/llm';
import { SecretsModule } from '@pylon/secrets';
import { McpToolsService } from './mcp-tools.service';
import { AgentRunsService } from './agent-runs.service';
import { RunEventsService } from './run-events.service';
import { RequiredActionsService } from './required-actions.service';
import { ConversationsService } from './conversations.service';
import { RunMeteringService } from './run-metering.service';
import { AgentSchedulesService } from './agent-schedules.service';

const SERVICES = [
  AgentRunsService,
  RunEventsService,
  RequiredActionsService,
  ConversationsService,
  RunMeteringService,
  McpToolsService,
  AgentSchedulesService,
];

/** Agent runs' rules, for the API and the worker. Needs the global config, database and Temporal client modules. */
@Module({
  imports: [LlmModule, KnowledgeModule, LimitsModule, LedgerModule, SecretsModule],
  providers: SERVICES,
  exports: SERVICES,
})
export class AgentRunsModule {}
