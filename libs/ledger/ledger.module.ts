import { Module } from '@nestjs/common';
import { LedgerService } from './ledger.service';
import { ModelPricesService } from './model-prices.service';
import { LedgerRepository } from './repositories/ledger.repository';
import { ModelPriceChanges } from './repositories/model-price-changes';
import { ModelPriceRepository } from './repositories/model-price.repository';

/** The token ledger and the model prices it charges by. Needs the global config and database modules. */
@Module({
  providers: [LedgerService, ModelPricesService, LedgerRepository, ModelPriceRepository, ModelPriceChanges],
  exports: [LedgerService, ModelPricesService],
})
export class LedgerModule {}
