import { Module } from '@nestjs/common';
import { AgentRunsModule } from '@pylon/agent-runs';
import { AgentsModule } from '@pylon/agents';
import { ModelsService } from './models.service';
import { ResponsesService } from './responses.service';

/** OpenAI's interfaces over Pylon's own: the Responses API on runs, the models it can name. */
@Module({
  imports: [AgentRunsModule, AgentsModule],
  providers: [ResponsesService, ModelsService],
  exports: [ResponsesService, ModelsService],
})
export class OpenAiCompatModule {}
