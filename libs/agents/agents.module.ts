import { Module } from '@nestjs/common';
import { LlmModule } from '@pylon/llm';
import { AgentsService } from './agents.service';

/** Agents' rules. Needs the global config and database modules. */
@Module({ imports: [LlmModule], providers: [AgentsService], exports: [AgentsService] })
export class AgentsModule {}
