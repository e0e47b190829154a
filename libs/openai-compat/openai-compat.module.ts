import { Module } from '@nestjs/common';
import { AgentRunsModule } from '@pylon/agent-runs';
import { AgentsModule } from '@pylon/agents';
import { ChatCompletionsService } from './chat-completions.service';
import { ModelsService } from './models.service';
import { ResponsesService } from './responses.service';

/** OpenAI's interfaces over Pylon's own: the Responses API on runs, Chat Completions on the same, the models they can name. */
@Module({
  imports: [AgentRunsModule, AgentsModule],
  providers: [ResponsesService, ModelsService, ChatCompletionsService],
  exports: [ResponsesService, ModelsService, ChatCompletionsService],
})
export class OpenAiCompatModule {}
