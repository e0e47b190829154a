import type { Agent, AgentVersion } from '@pylon/db';
import { withDefaults } from '@pylon/agents';
import type { AgentVersionView, AgentView } from './dto/agent.dto';

export function toAgentView(agent: Agent): AgentView {
  return { agent_id: agent.id, org_id: agent.orgId, name: agent.name, created_at: agent.createdAt.toISOString() };
}

export function toAgentVersionView(version: AgentVersion): AgentVersionView {
  return {
    agent_version_id: version.id,
    agent_id: version.agentId,
    org_id: version.orgId,
    version: version.version,
    model: version.model,
    fallback_models: version.fallbackModels,
    compaction_model: version.compactionModel,
    instructions: version.instructions,
    temperature: version.temperature,
    max_output_tokens: version.maxOutputTokens,
    run_timeout_seconds: version.runTimeoutSeconds,
    action_timeout_seconds: version.actionTimeoutSeconds,
    tools: withDefaults(version.tools),
    response_format: version.responseFormat,
    created_at: version.createdAt.toISOString(),
  };
}
