import { Module } from '@nestjs/common';
import { AgentRunsModule } from '@pylon/agent-runs';
import { AgentSchedulesController } from './agent-schedules.controller';

@Module({ imports: [AgentRunsModule], controllers: [AgentSchedulesController] })
export class AgentSchedulesApiModule {}
