export { PylonConfig, loadConfig, type WorkerSlots } from './pylon-config';
export { ConfigError } from './config-error';
export { requireSupportedNode, MINIMUM_NODE } from './node-runtime';
export { ConfigModule } from './config.module';
