import { Module } from '@nestjs/common';
import { LlmModule } from '@pylon/llm';
import { SecretsModule } from '@pylon/secrets';
import { AgentsService } from './agents.service';
import { McpHeaderSecretsService } from './mcp-header-secrets.service';

/** Agents' rules. Needs the global config and database modules. */
@Module({
  imports: [LlmModule, SecretsModule],
  providers: [AgentsService, McpHeaderSecretsService],
  exports: [AgentsService, McpHeaderSecretsService],
})
export class AgentsModule {}
