import { Module } from '@nestjs/common';
import { AgentRunsController } from './agent-runs.controller';
import { AgentRunsService } from './agent-runs.service';
import { RunWorkflows } from './run-workflows';

@Module({ controllers: [AgentRunsController], providers: [AgentRunsService, RunWorkflows] })
export class AgentRunsModule {}
