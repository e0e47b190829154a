export { toAgentRunView, toAgentRunCreated, runEvent, type AgentRunView, type AgentRunCreatedView } from './run-view';
export { AgentRunsService, type NewRunRequest, type QueuedRun, type ScheduledRun } from './agent-runs.service';
export { AgentSchedulesService, type NewScheduleRequest, type ScheduleChanges, type ScheduleWithNextRuns } from './agent-schedules.service';
export { AgentRunsModule } from './agent-runs.module';
export { OutputMismatchError, RunAlreadyFinishedError, RunCannotPayError, RunNotFoundError } from './run-errors';
export { RunEventsService, OutputRecorder, TERMINAL_RUN_EVENTS, type RunEventStream } from './run-events.service';
export { RequiredActionsService, type RequiredActionView } from './required-actions.service';
export { ConversationsService } from './conversations.service';
export { RunMeteringService, type RunUsage } from './run-metering.service';
export { McpToolsService, MCP_LIST_TOOLS_EVENT } from './tools/mcp-tools.service';
export { KnowledgeSearchTool } from './tools/knowledge-search.tool';
export { ModelTurnService } from './model-turn.service';
export { AgentRunRepository, type NewAgentRun } from './repositories/agent-run.repository';
export { AgentScheduleRepository, type AgentScheduleChanges } from './repositories/agent-schedule.repository';
export { RunEventRepository, type StoredRunEvent } from './repositories/run-event.repository';
export { type NewRunEvent } from './repositories/agent-run-row';
export {
  ConversationRepository,
  type ConversationItem,
  type ConversationItemType,
  type ItemPosition,
  type NewConversationItem,
} from './repositories/conversation.repository';
export { RunActionRepository, type NewRunAction, type RunAction, type RunActionStatus } from './repositories/run-action.repository';
export { RunUsageRepository, type NewRunTurnUsage, type RunTurnUsage } from './repositories/run-usage.repository';
export { RunEventNotifications, type RunAnnouncement } from './repositories/run-event-notifications';
