export { LimitsModule } from './limits.module';
export { LimitsService } from './limits.service';
export { LimitExceededError } from './limit-errors';
export { RateLimitMetrics, type LimitName } from './rate-limit-metrics';
export { BURST_WINDOW_SECONDS, effectiveKeyRate, type KeyRate, type RateDecision } from './key-rate';
export { effectiveOrgLimits, type EffectiveOrgLimits, type OrgLimitOverrides, type OrgLimitValues } from './org-limits';
