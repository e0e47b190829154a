import { Module } from '@nestjs/common';
import { OpenAiCompatModule } from '@pylon/openai-compat';
import { ChatCompletionsController } from './chat-completions.controller';
import { ModelsController } from './models.controller';
import { ResponsesController } from './responses.controller';

@Module({ imports: [OpenAiCompatModule], controllers: [ResponsesController, ChatCompletionsController, ModelsController] })
export class OpenAiCompatApiModule {}
