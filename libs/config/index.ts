export { PylonConfig, loadConfig, type WorkerSlots } from './pylon-config';
export { ConfigError } from './config-error';
export { ConfigModule } from './config.module';
