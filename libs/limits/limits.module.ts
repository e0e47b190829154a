import { Global, Module } from '@nestjs/common';
import { LimitsService } from './limits.service';
import { RateLimitMetrics } from './rate-limit-metrics';

/** The limits service and its rejection counters, for every module of the API. */
@Global()
@Module({ providers: [LimitsService, RateLimitMetrics], exports: [LimitsService, RateLimitMetrics] })
export class LimitsModule {}
