import { Module } from '@nestjs/common';
import { KnowledgeModule } from '@pylon/knowledge';
import { LlmModule } from '@pylon/llm';
import { ModelCredentialsModule } from '@pylon/model-credentials';
import { SecretsModule } from '@pylon/secrets';
import { AgentsService } from './agents.service';
import { McpHeaderSecretsService } from './mcp-header-secrets.service';

/** Agents' rules. Needs the global config and database modules (and the Temporal client, for KnowledgeModule). */
import { AgentRepository } from './repositories/agent.repository';

@Module({
  imports: [LlmModule, SecretsModule, KnowledgeModule, ModelCredentialsModule],
  providers: [AgentsService, McpHeaderSecretsService, AgentRepository],
  exports: [AgentsService, McpHeaderSecretsService, AgentRepository],
})
export class AgentsModule {}
