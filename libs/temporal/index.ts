export { TemporalClientModule } from './temporal-client.module';
export { registerSearchAttributes } from './register-search-attributes';
export { WorkflowStarter, isForgottenUpdate, type StartRequest, type UpdateOutcome } from './workflow-starter';
export { EventAnnouncer } from './event-announcer';
export { TaskQueueBacklogReader, type QueueBacklog } from './task-queue-backlog';
export { ensureRunEventsRetentionSchedule } from './retention-schedule';
export { AgentScheduleEngine, InvalidScheduleSpecError, type AgentScheduleDefinition } from './agent-schedule-engine';
