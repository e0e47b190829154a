export { UsageService, type UsageReport, type UsageWindowReport, type RecentFailure, type FailingEndpoint, type KeyUsage } from './usage.service';
export { UsageModule } from './usage.module';
