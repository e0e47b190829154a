export { PylonConfig, loadConfig } from './pylon-config';
export { ConfigError } from './config-error';
export { ConfigModule } from './config.module';
