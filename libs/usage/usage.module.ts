import { Module } from '@nestjs/common';
import { UsageService } from './usage.service';

/** The organisation's usage report. Needs the global database module. */
@Module({ providers: [UsageService], exports: [UsageService] })
export class UsageModule {}
