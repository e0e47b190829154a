import { Module } from '@nestjs/common';
import { LedgerService } from './ledger.service';
import { ModelPricesService } from './model-prices.service';

@Module({ providers: [LedgerService, ModelPricesService], exports: [LedgerService, ModelPricesService] })
export class LedgerModule {}
