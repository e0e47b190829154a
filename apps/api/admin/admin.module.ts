import { Module } from '@nestjs/common';
import { AgentsModule } from '@pylon/agents';
import { KnowledgeModule } from '@pylon/knowledge';
import { AdminController } from './admin.controller';
import { KnowledgeIndexController } from './knowledge-index.controller';
import { OrgLimitsController } from './org-limits.controller';
import { SecretsController } from './secrets.controller';

@Module({
  imports: [KnowledgeModule, AgentsModule],
  controllers: [AdminController, OrgLimitsController, KnowledgeIndexController, SecretsController],
})
export class AdminModule {}
