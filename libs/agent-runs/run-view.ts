import { EVENT_TYPES } from '@pylon/contracts';
import type { AgentRun, EventFactory } from '@pylon/db';

/** 2.1: the run as the API returns it (and as its events carry it), exactly these nine fields. */
export interface AgentRunView {
  run_id: string;
  org_id: string;
  agent_version_id: string;
  input: string;
  output: string | null;
  status: AgentRun['status'];
  error: string | null;
  created_at: string;
  updated_at: string;
}

/** 2.2: the creation result. */
export interface AgentRunCreatedView {
  run_id: string;
  status: AgentRun['status'];
  created_at: string;
}

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

export function toAgentRunCreated(run: Pick<AgentRun, 'id' | 'status' | 'createdAt'>): AgentRunCreatedView {
  return { run_id: run.id, status: run.status, created_at: run.createdAt.toISOString() };
}

/**
 * A final state's event, carrying the run as the API returns it: the webhook event `agent_run.succeeded`
 * or `.failed` (the run's terminal log event, `succeeded` or `failed`, carries the same data).
 */
export const runEvent: EventFactory<AgentRun> = (run) => ({
  type: run.status === 'succeeded' ? EVENT_TYPES.agentRunSucceeded : EVENT_TYPES.agentRunFailed,
  data: { ...toAgentRunView(run) },
});

/** A structured answer's final event: as runEvent's, a `succeeded` one also carrying the answer parsed (`output_parsed`). */
export function structuredRunEvent(parsed: unknown): EventFactory<AgentRun> {
  return (run) => {
    const event = runEvent(run);
    return run.status === 'succeeded' ? { ...event, data: { ...event.data, output_parsed: parsed } } : event;
  };
}
