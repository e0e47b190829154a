import { Global, Module } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { ApiKeysModule } from '@pylon/api-keys';
import { StrictQuery } from '../common/query-params';
import { AccessGuard } from './access.guard';

/**
 * Keys, and the global guards in the order they run: who asks (AccessGuard), then whether the query
 * string is one the operation takes (StrictQuery), so that a caller hears about its key first.
 */
@Global()
@Module({
  imports: [ApiKeysModule],
  providers: [
    { provide: APP_GUARD, useClass: AccessGuard },
    { provide: APP_GUARD, useClass: StrictQuery },
  ],
  exports: [ApiKeysModule],
})
export class AuthModule {}
