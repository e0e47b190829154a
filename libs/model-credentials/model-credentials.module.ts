import { Module } from '@nestjs/common';
import { LlmModule } from '@pylon/llm';
import { SecretsModule } from '@pylon/secrets';
import { ModelCredentialsService } from './model-credentials.service';
import { ModelCredentialRepository } from './repositories/model-credential.repository';

/** Organisations' own model-provider keys. Needs the global config and database modules. */
@Module({
  imports: [LlmModule, SecretsModule],
  providers: [ModelCredentialsService, ModelCredentialRepository],
  exports: [ModelCredentialsService],
})
export class ModelCredentialsModule {}
