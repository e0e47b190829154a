export { toAgentRunView, toAgentRunCreated, runEvent, type AgentRunView, type AgentRunCreatedView } from './run-view';
export { AgentRunsService, IF_BUSY, type IfBusy, type NewRunRequest, type QueuedRun } from './agent-runs.service';
export { AgentRunsModule } from './agent-runs.module';
export { OutputMismatchError, RunAlreadyFinishedError, RunCannotPayError, RunNotFoundError } from './run-errors';
export { RunEventsService, OutputRecorder, TERMINAL_RUN_EVENTS, type RunEventStream } from './run-events.service';
export { RequiredActionsService, type RequiredActionView } from './required-actions.service';
export { ConversationsService } from './conversations.service';
export { RunMeteringService, type RunUsage } from './run-metering.service';
export { McpToolsService, MCP_LIST_TOOLS_EVENT } from './mcp-tools.service';
