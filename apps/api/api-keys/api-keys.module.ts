import { Module } from '@nestjs/common';
import { ApiKeysController } from './api-keys.controller';
import { WhoAmIController } from './whoami.controller';

@Module({ controllers: [ApiKeysController, WhoAmIController] })
export class ApiKeysApiModule {}
