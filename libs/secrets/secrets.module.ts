import { Module } from '@nestjs/common';
import { PylonConfig } from '@pylon/config';
import { SecretBox } from './secret-box';

/** The SecretBox under the configured keys, for every module that keeps or uses secrets. */
@Module({
  providers: [
    { provide: SecretBox, inject: [PylonConfig], useFactory: (config: PylonConfig) => new SecretBox(config.secretsKey, config.secretsPreviousKeys) },
  ],
  exports: [SecretBox],
})
export class SecretsModule {}
