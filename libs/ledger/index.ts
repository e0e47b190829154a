export { LedgerService, type TokenGrant, type TokenGrantRequest } from './ledger.service';
export { LedgerModule } from './ledger.module';
export { ModelPricesService, type PriceInEffect } from './model-prices.service';
export { ModelPriceRepository, type ModelPrice } from './repositories/model-price.repository';
export { ModelPriceChanges } from './repositories/model-price-changes';
export { LedgerRepository, InsufficientTokensError, type EntryReference } from './repositories/ledger.repository';
