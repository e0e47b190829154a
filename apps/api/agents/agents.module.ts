import { Module } from '@nestjs/common';
import { AgentsModule } from '@pylon/agents';
import { AgentsController } from './agents.controller';

@Module({ imports: [AgentsModule], controllers: [AgentsController] })
export class AgentsApiModule {}
