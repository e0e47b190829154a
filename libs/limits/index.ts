export { LimitsModule } from './limits.module';
export { LimitsService } from './limits.service';
export { LimitExceededError, RetryLaterError } from './limit-errors';
export { type BacklogKind } from './backlog-counts';
export { RateLimitMetrics, type LimitName } from './rate-limit-metrics';
export { effectiveKeyRate, type KeyRate, type RateDecision } from './key-rate';
export { effectiveOrgLimits, type EffectiveOrgLimits, type OrgLimitOverrides, type OrgLimitValues } from './org-limits';
