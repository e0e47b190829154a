export { PylonConfig, loadConfig, type WorkerSlots } from './pylon-config';
export { ConfigError } from './config-error';
export type { ConfiguredModelPrice } from './readers';
export { requireSupportedNode, missingNodeFlagsWarning, MINIMUM_NODE, PYLON_NODE_FLAGS } from './node-runtime';
export { ConfigModule } from './config.module';
export { ADMIN_TOKEN_FILE, DEMO_FILE, POSTGRES_DIR, SECRETS_KEY_FILE, TEMPORAL_DB_FILE } from './data-files';
export { parseSecretsKey } from './secrets-key';
