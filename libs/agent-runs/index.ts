export { toAgentRunView, toAgentRunCreated, runEvent, type AgentRunView, type AgentRunCreatedView } from './run-view';
export { AgentRunsService, IF_BUSY, type IfBusy, type NewRunRequest, type QueuedRun, type ScheduledRun } from './agent-runs.service';
export { AgentSchedulesService, type NewScheduleRequest, type ScheduleChanges, type ScheduleWithNextRuns } from './agent-schedules.service';
export { AgentRunsModule } from './agent-runs.module';
export { RunAlreadyFinishedError, RunNotFoundError } from './run-errors';
export { RunEventsService, OutputRecorder, TERMINAL_RUN_EVENTS, type RunEventStream } from './run-events.service';
export { RequiredActionsService, type RequiredActionView } from './required-actions.service';
export { ConversationsService } from './conversations.service';
