import { Module } from '@nestjs/common';
import { KnowledgeModule } from '@pylon/knowledge';
import { LedgerModule } from '@pylon/ledger';
import { LimitsModule } from '@pylon/limits';
import { LlmModule } from '@pylon/llm';
import { ModelCredentialsModule } from '@pylon/model-credentials';
import { SecretsModule } from '@pylon/secrets';
import { AgentRunsService } from './agent-runs.service';
import { AgentVersions } from './agent-versions';
import { ModelTurnService } from './model-turn.service';
import { KnowledgeSearchTool } from './tools/knowledge-search.tool';
import { McpToolsService } from './tools/mcp-tools.service';
import { RunEventsService } from './run-events.service';
import { RequiredActionsService } from './required-actions.service';
import { ConversationsService } from './conversations.service';
import { RunMeteringService } from './run-metering.service';
import { ConversationCompactor } from './conversation-compaction';
import { ConversationContext } from './conversation-context';
import { AgentSchedulesService } from './agent-schedules.service';

import { AgentsModule } from '@pylon/agents';
import { AgentRunRepository } from './repositories/agent-run.repository';
import { AgentScheduleRepository } from './repositories/agent-schedule.repository';
import { ConversationRepository } from './repositories/conversation.repository';
import { RunActionRepository } from './repositories/run-action.repository';
import { RunEventNotifications } from './repositories/run-event-notifications';
import { RunEventRepository } from './repositories/run-event.repository';
import { RunUsageRepository } from './repositories/run-usage.repository';

const REPOSITORIES = [
  AgentRunRepository,
  AgentScheduleRepository,
  RunEventRepository,
  RunEventNotifications,
  ConversationRepository,
  RunActionRepository,
  RunUsageRepository,
];

const SERVICES = [
  AgentVersions,
  AgentRunsService,
  ModelTurnService,
  KnowledgeSearchTool,
  RunEventsService,
  RequiredActionsService,
  ConversationsService,
  RunMeteringService,
  ConversationCompactor,
  ConversationContext,
  McpToolsService,
  AgentSchedulesService,
];

/** Agent runs' rules, for the API and the worker. Needs the global config, database and Temporal client modules. */
@Module({
  imports: [LlmModule, KnowledgeModule, LimitsModule, LedgerModule, SecretsModule, AgentsModule, ModelCredentialsModule],
  providers: [...SERVICES, ...REPOSITORIES],
  exports: SERVICES,
})
export class AgentRunsModule {}
