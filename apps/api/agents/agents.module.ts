import { Module } from '@nestjs/common';
import { LlmModule } from '@pylon/llm';
import { AgentsController } from './agents.controller';
import { AgentsService } from './agents.service';

@Module({ imports: [LlmModule], controllers: [AgentsController], providers: [AgentsService] })
export class AgentsModule {}
