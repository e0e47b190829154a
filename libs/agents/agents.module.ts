import { Module } from '@nestjs/common';
import { LlmModule } from '@pylon/llm';
import { SecretsModule } from '@pylon/secrets';
import { AgentsService } from './agents.service';

/** Agents' rules. Needs the global config and database modules. */
@Module({ imports: [LlmModule, SecretsModule], providers: [AgentsService], exports: [AgentsService] })
export class AgentsModule {}
