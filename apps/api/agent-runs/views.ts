import type { AgentRun } from '@pylon/db';
import type { AgentRunCreated, AgentRunView } from './dto/agent-run.dto';

export function toAgentRunView(run: AgentRun): AgentRunView {
  return {
    run_id: run.id,
    org_id: run.orgId,
    agent_version_id: run.agentVersionId,
    input: run.input,
    output: run.output,
    status: run.status,
    error: run.error,
    created_at: run.createdAt.toISOString(),
    updated_at: run.updatedAt.toISOString(),
  };
}

export function toAgentRunCreated(run: Pick<AgentRun, 'id' | 'status' | 'createdAt'>): AgentRunCreated {
  return { run_id: run.id, status: run.status, created_at: run.createdAt.toISOString() };
}
