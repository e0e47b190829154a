export {
  PylonMetrics,
  WEBHOOK_ATTEMPT_RESULTS,
  TASK_TYPES,
  type MetricsProcess,
  type WebhookAttemptResult,
  type TaskType,
  type TaskQueueBacklogSample,
  type WorkerSlotSample,
  type ExtractionLoadSample,
} from './pylon-metrics';
export { MetricsModule } from './metrics.module';
export { serveClusterMetrics } from './cluster-metrics';
