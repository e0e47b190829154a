export { AgentsService, type AgentVersionRequest } from './agents.service';
export { AgentsModule } from './agents.module';
export { versionTools, withDefaults, type AgentToolRequest } from './version-tools';
export { McpHeaderSecretsService, type ResealOutcome } from './mcp-header-secrets.service';
export { AgentRepository, type CreateIdempotency, type NewAgentVersion } from './repositories/agent.repository';
