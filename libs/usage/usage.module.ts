import { Module } from '@nestjs/common';
import { UsageService } from './usage.service';
import { UsageRepository } from './repositories/usage.repository';

/** The organisation's usage report. Needs the global database module. */
@Module({ providers: [UsageService, UsageRepository], exports: [UsageService, UsageRepository] })
export class UsageModule {}
