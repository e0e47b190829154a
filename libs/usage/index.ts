export { UsageService, type UsageReport, type UsageWindowReport, type RecentFailure, type FailingEndpoint, type KeyUsage } from './usage.service';
export { UsageModule } from './usage.module';
export {
  UsageRepository,
  USAGE_SQL,
  type FailingEndpointRow,
  type FailureKind,
  type FailureRow,
  type KeyRequestCount,
  type KeyRequestRow,
  type RunCounts,
  type ModelTurnCounts,
  type UsageWindows,
  type WindowRow,
} from './repositories/usage.repository';
