import { Module } from '@nestjs/common';
import { AdminController } from './admin.controller';
import { OrgLimitsController } from './org-limits.controller';

@Module({ controllers: [AdminController, OrgLimitsController] })
export class AdminModule {}
