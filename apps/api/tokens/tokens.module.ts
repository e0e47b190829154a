import { Module } from '@nestjs/common';
import { LedgerModule } from '@pylon/ledger';
import { TokensController } from './tokens.controller';

@Module({ imports: [LedgerModule], controllers: [TokensController] })
export class TokensModule {}
