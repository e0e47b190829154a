import { Module } from '@nestjs/common';
import { AgentRunsModule } from '@pylon/agent-runs';
import { AgentRunsController } from './agent-runs.controller';
import { RunEventsController } from './run-events.controller';

@Module({ imports: [AgentRunsModule], controllers: [AgentRunsController, RunEventsController] })
export class AgentRunsApiModule {}
