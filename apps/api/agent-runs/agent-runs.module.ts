import { Module } from '@nestjs/common';
import { AgentRunsModule } from '@pylon/agent-runs';
import { AgentRunsController } from './agent-runs.controller';

@Module({ imports: [AgentRunsModule], controllers: [AgentRunsController] })
export class AgentRunsApiModule {}
