import { Module } from '@nestjs/common';
import { OpenAiCompatModule } from '@pylon/openai-compat';
import { ResponsesController } from './responses.controller';

@Module({ imports: [OpenAiCompatModule], controllers: [ResponsesController] })
export class OpenAiCompatApiModule {}
