import { AgentRun } from '@pylon/db';

/** The run's columns under its entity's property names, so raw rows need no query builder to map. */
export const RUN_COLUMNS = `id, org_id AS "orgId", agent_version_id AS "agentVersionId", input, output, status, error,
  idempotency_key AS "idempotencyKey", request_hash AS "requestHash", conversation_id AS "conversationId",
  conversation_seq AS "conversationSeq", schedule_id AS "scheduleId", scheduled_at AS "scheduledAt", created_at AS "createdAt", updated_at AS "updatedAt"`;

export function toAgentRun(row: AgentRun): AgentRun {
  return Object.assign(new AgentRun(), row);
}

/** One entry to append to a run's event log (the log numbers it). */
export interface NewRunEvent {
  type: string;
  data: Record<string, unknown>;
}
