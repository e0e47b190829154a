export { ApiKeyService, type IssuedApiKey } from './api-key.service';
export type { Principal } from './principal';
export { ApiKeyUsageCounter, KeyRequestCounter, KEY_REQUEST_RETENTION_DAYS, type KeyRequestSink } from './api-key-usage-counter';
export { ApiKeyChanges } from './repositories/api-key-changes';
export { ApiKeyRepository } from './repositories/api-key.repository';
export { ApiKeysModule } from './api-keys.module';
