import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import type { RunStatus } from '@pylon/contracts';
import { AgentRun } from '../entities';
import { Page, PageRequest, paginate } from '../pagination';
import { recordEvent, unannouncedEvent, type NewEvent } from './event-recorder';
import { appendRunEvents, type NewRunEvent } from './run-event.repository';
import { TOUCH_UPDATED_AT, returnedRows } from './sql';

/** The events of a run's final state, from the run as it is then: for webhooks, and the run's own log. */
export type AgentRunEventFactory = (run: AgentRun) => { webhook: Omit<NewEvent, 'orgId' | 'resourceId'>; log: NewRunEvent };

export type NewAgentRun = Pick<
  AgentRun,
  'id' | 'orgId' | 'agentVersionId' | 'input' | 'idempotencyKey' | 'requestHash' | 'createdAt'
>;

/** The run's columns under its entity's property names, so raw rows need no query builder to map. */
const RUN_COLUMNS = `id, org_id AS "orgId", agent_version_id AS "agentVersionId", input, output, status, error,
  idempotency_key AS "idempotencyKey", request_hash AS "requestHash", created_at AS "createdAt", updated_at AS "updatedAt"`;

function toAgentRun(row: AgentRun): AgentRun {
  return Object.assign(new AgentRun(), row);
}

/**
 * The run projection. Transitions are conditional updates, so a retried activity never
 * duplicates or regresses a run: queued → running → succeeded | failed, and final is final.
 */
@Injectable()
export class AgentRunRepository {
  constructor(private readonly db: DataSource) {}

  private get runs() {
    return this.db.getRepository(AgentRun);
  }

  /** Inserts a queued run with its `queued` event; false when a run with that id or idempotency key already exists. */
  async insertQueued(run: NewAgentRun): Promise<boolean> {
    const inserted = (await this.db.query(
      `WITH inserted AS (
         INSERT INTO agent_runs
           (id, org_id, agent_version_id, input, status, idempotency_key, request_hash, created_at, updated_at)
         VALUES ($1, $2, $3, $4, 'queued', $5, $6, $7, $7)
         ON CONFLICT DO NOTHING
         RETURNING id, org_id
       ), logged AS (
         INSERT INTO run_events (run_id, org_id, type, data, seq)
         SELECT id, org_id, 'queued', '{"status": "queued"}'::jsonb, 1 FROM inserted
       )
       SELECT id FROM inserted`,
      [run.id, run.orgId, run.agentVersionId, run.input, run.idempotencyKey, run.requestHash, run.createdAt],
    )) as unknown[];
    return inserted.length > 0;
  }

  /** The hottest read of the API (callers poll it): plain SQL, no query builder. */
  async findById(orgId: string, runId: string): Promise<AgentRun | null> {
    const [row] = (await this.db.query(`SELECT ${RUN_COLUMNS} FROM agent_runs WHERE id = $1 AND org_id = $2`, [runId, orgId])) as AgentRun[];
    return row ? toAgentRun(row) : null;
  }

  findByIdempotencyKey(orgId: string, idempotencyKey: string): Promise<AgentRun | null> {
    return this.runs.findOneBy({ orgId, idempotencyKey });
  }

  list(orgId: string, status: RunStatus | undefined, page: PageRequest): Promise<Page<AgentRun>> {
    const query = this.runs.createQueryBuilder('run').where('run.org_id = :orgId', { orgId });
    if (status) query.andWhere('run.status = :status', { status });
    return paginate(query, page);
  }

  /** Removes a run whose workflow could not be started, so nothing is left queued forever. */
  async deleteQueued(orgId: string, runId: string): Promise<void> {
    await this.db.query(`DELETE FROM agent_runs WHERE id = $1 AND org_id = $2 AND status = 'queued'`, [runId, orgId]);
  }

  /**
   * queued → running with its `running` event, in one statement. The run's status, version and input
   * afterwards, or null when it does not exist.
   */
  async markRunning(orgId: string, runId: string): Promise<{ status: RunStatus; agentVersionId: string; input: string } | null> {
    const [row] = (await this.db.query(
      `WITH started AS (
         UPDATE agent_runs SET status = 'running', ${TOUCH_UPDATED_AT} WHERE id = $1 AND org_id = $2 AND status = 'queued'
         RETURNING id, org_id, status, agent_version_id, input
       ), logged AS (
         INSERT INTO run_events (run_id, org_id, type, data, seq)
         SELECT id, org_id, 'running', '{"status": "running"}'::jsonb, 0 FROM started
       )
       SELECT status, agent_version_id, input FROM started
       UNION ALL
       SELECT status, agent_version_id, input FROM agent_runs WHERE id = $1 AND org_id = $2 AND NOT EXISTS (SELECT 1 FROM started)`,
      [runId, orgId],
    )) as Array<{ status: RunStatus; agent_version_id: string; input: string }>;
    return row ? { status: row.status, agentVersionId: row.agent_version_id, input: row.input } : null;
  }

  /** → succeeded with the output, and its event, in one transaction. The event id, or null when the run was already final. */
  markSucceeded(orgId: string, runId: string, output: string, describe: AgentRunEventFactory, logBefore: NewRunEvent[] = []): Promise<string | null> {
    return this.finish(orgId, runId, `status = 'succeeded', output = $3, error = NULL`, output, describe, logBefore);
  }

  markFailed(orgId: string, runId: string, error: string, describe: AgentRunEventFactory): Promise<string | null> {
    return this.finish(orgId, runId, `status = 'failed', output = NULL, error = $3`, error, describe);
  }

  /** The id of the run's latest event if it was recorded but never announced (a retried final step), else null. */
  unannouncedEvent(orgId: string, runId: string): Promise<string | null> {
    return unannouncedEvent(this.db.manager, orgId, runId);
  }

  /** The final state, its events in the run's log (after `logBefore`, e.g. the last output deltas) and its webhook event, in one transaction. */
  private finish(
    orgId: string,
    runId: string,
    assignments: string,
    value: string,
    describe: AgentRunEventFactory,
    logBefore: NewRunEvent[] = [],
  ): Promise<string | null> {
    return this.db.transaction(async (manager) => {
      const updated = (await manager.query(
        `UPDATE agent_runs SET ${assignments}, ${TOUCH_UPDATED_AT} WHERE id = $1 AND org_id = $2 AND status IN ('queued', 'running') RETURNING ${RUN_COLUMNS}`,
        [runId, orgId, value],
      )) as unknown[];
      const [row] = returnedRows(updated) as AgentRun[];
      if (!row) return unannouncedEvent(manager, orgId, runId);
      const events = describe(toAgentRun(row));
      await appendRunEvents(manager, orgId, runId, [...logBefore, events.log]);
      return recordEvent(manager, { orgId, resourceId: runId, ...events.webhook });
    });
  }
}
