import { Module } from '@nestjs/common';
import { KnowledgeModule } from '@pylon/knowledge';
import { LedgerModule } from '@pylon/ledger';
import { AdminController } from './admin.controller';
import { KnowledgeIndexController } from './knowledge-index.controller';
import { OrgLimitsController } from './org-limits.controller';
import { ModelPricesController } from './model-prices.controller';

@Module({
  imports: [KnowledgeModule, LedgerModule],
  controllers: [AdminController, OrgLimitsController, KnowledgeIndexController, ModelPricesController],
})
export class AdminModule {}
