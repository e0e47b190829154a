import { Module } from '@nestjs/common';
import { OpenAiCompatModule } from '@pylon/openai-compat';
import { ModelsController } from './models.controller';
import { ResponsesController } from './responses.controller';

@Module({ imports: [OpenAiCompatModule], controllers: [ResponsesController, ModelsController] })
export class OpenAiCompatApiModule {}
