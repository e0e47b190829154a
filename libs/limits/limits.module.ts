import { Global, Module } from '@nestjs/common';
import { LimitsService } from './limits.service';
import { RateLimitMetrics } from './rate-limit-metrics';
import { KeyRateBucketRepository } from './repositories/key-rate-bucket.repository';
import { OrgLimitsRepository } from './repositories/org-limits.repository';
import { RateLimitStore } from './repositories/rate-limit-store';

/** The limits service and its rejection counters, for every module of the API. */
@Global()
@Module({
  providers: [LimitsService, RateLimitMetrics, OrgLimitsRepository, KeyRateBucketRepository, RateLimitStore],
  exports: [LimitsService, RateLimitMetrics],
})
export class LimitsModule {}
