export { LedgerService, type TokenGrant, type TokenGrantRequest } from './ledger.service';
export { LedgerModule } from './ledger.module';
export { InsufficientTokensError } from '@pylon/db';
export { ModelPricesService, type PriceInEffect } from './model-prices.service';
