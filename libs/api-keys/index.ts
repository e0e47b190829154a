export { ApiKeyService, type IssuedApiKey } from './api-key.service';
export { generateApiKey, hashApiKey, hashesMatch, parseApiKey } from './api-key-codec';
export type { Principal } from './principal';
