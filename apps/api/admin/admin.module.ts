import { Module } from '@nestjs/common';
import { AgentsModule } from '@pylon/agents';
import { KnowledgeModule } from '@pylon/knowledge';
import { LedgerModule } from '@pylon/ledger';
import { ModelCredentialsModule } from '@pylon/model-credentials';
import { AdminController } from './admin.controller';
import { KnowledgeIndexController } from './knowledge-index.controller';
import { OrgLimitsController } from './org-limits.controller';
import { ModelPricesController } from './model-prices.controller';
import { SecretsController } from './secrets.controller';

@Module({
  imports: [KnowledgeModule, LedgerModule, AgentsModule, ModelCredentialsModule],
  controllers: [AdminController, OrgLimitsController, KnowledgeIndexController, ModelPricesController, SecretsController],
})
export class AdminModule {}
