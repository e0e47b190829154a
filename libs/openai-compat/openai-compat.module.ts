import { Module } from '@nestjs/common';
import { AgentRunsModule } from '@pylon/agent-runs';
import { AgentsModule } from '@pylon/agents';
import { ResponsesService } from './responses.service';

/** OpenAI's interfaces over Pylon's own: the Responses API on runs. */
@Module({
  imports: [AgentRunsModule, AgentsModule],
  providers: [ResponsesService],
  exports: [ResponsesService],
})
export class OpenAiCompatModule {}
