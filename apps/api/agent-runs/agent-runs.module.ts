import { Module } from '@nestjs/common';
import { AgentRunsModule } from '@pylon/agent-runs';
import { AgentRunsController } from './agent-runs.controller';
import { RequiredActionsController } from './required-actions.controller';
import { RunEventsController } from './run-events.controller';

@Module({ imports: [AgentRunsModule], controllers: [AgentRunsController, RunEventsController, RequiredActionsController] })
export class AgentRunsApiModule {}
