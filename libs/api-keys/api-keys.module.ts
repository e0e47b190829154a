import { Module } from '@nestjs/common';
import { UsageModule } from '@pylon/usage';
import { ApiKeyService } from './api-key.service';
import { ApiKeyUsageCounter } from './api-key-usage-counter';
import { ApiKeyChanges } from './repositories/api-key-changes';
import { ApiKeyRepository } from './repositories/api-key.repository';

/** Keys: their verification, changes announced across processes, and the hourly request counts. Needs the global config and database modules. */
@Module({
  imports: [UsageModule],
  providers: [ApiKeyService, ApiKeyUsageCounter, ApiKeyRepository, ApiKeyChanges],
  exports: [ApiKeyService, ApiKeyUsageCounter],
})
export class ApiKeysModule {}
