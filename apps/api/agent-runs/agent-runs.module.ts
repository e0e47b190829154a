import { Module } from '@nestjs/common';
import { AgentRunsModule } from '@pylon/agent-runs';
import { AgentRunsController } from './agent-runs.controller';
import { RequiredActionsController } from './required-actions.controller';
import { RunEventsController } from './run-events.controller';
import { RunUsageController } from './run-usage.controller';

@Module({ imports: [AgentRunsModule], controllers: [AgentRunsController, RunEventsController, RequiredActionsController, RunUsageController] })
export class AgentRunsApiModule {}
