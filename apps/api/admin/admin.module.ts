import { Module } from '@nestjs/common';
import { KnowledgeModule } from '@pylon/knowledge';
import { AdminController } from './admin.controller';
import { KnowledgeIndexController } from './knowledge-index.controller';
import { OrgLimitsController } from './org-limits.controller';

@Module({ imports: [KnowledgeModule], controllers: [AdminController, OrgLimitsController, KnowledgeIndexController] })
export class AdminModule {}
