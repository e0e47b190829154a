import { Global, Module } from '@nestjs/common';
import { PylonConfig, loadConfig } from './pylon-config';

/** Provides the validated `PylonConfig` to every module; a bad setting stops start-up here. */
@Global()
@Module({
  providers: [{ provide: PylonConfig, useFactory: () => loadConfig() }],
  exports: [PylonConfig],
})
export class ConfigModule {}
