import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { AccessGuard } from './access.guard';
import { ApiKeyService, ApiKeyUsageCounter } from '@pylon/api-keys';

@Global()
@Module({
  providers: [ApiKeyService, ApiKeyUsageCounter, { provide: APP_GUARD, useClass: AccessGuard }],
  exports: [ApiKeyService],
})
export class AuthModule {}
