export { ApiKeyService, type IssuedApiKey } from './api-key.service';
export type { Principal } from './principal';
