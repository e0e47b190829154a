import { Module } from '@nestjs/common';
import { UsageModule } from '@pylon/usage';
import { UsageController } from './usage.controller';

@Module({ imports: [UsageModule], controllers: [UsageController] })
export class UsageApiModule {}
