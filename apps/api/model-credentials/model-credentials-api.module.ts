import { Module } from '@nestjs/common';
import { ModelCredentialsModule } from '@pylon/model-credentials';
import { ModelCredentialsController } from './model-credentials.controller';

@Module({ imports: [ModelCredentialsModule], controllers: [ModelCredentialsController] })
export class ModelCredentialsApiModule {}
