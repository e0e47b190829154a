import { Injectable } from '@nestjs/common';
import { DataSource, type EntityManager } from 'typeorm';
import { type AgentRun, prepared } from '@pylon/db';

import { RUN_COLUMNS, toAgentRun, type NewRunEvent } from './agent-run-row';

/** One entry of a run's event log; `seq` counts from 1 within the run. */
export interface StoredRunEvent {
  seq: number;
  type: string;
  data: Record<string, unknown>;
  createdAt: Date;
}

/** Every run appends to its log and every stream reads it: prepared (see prepared-statements.ts). */
const APPEND = prepared(
  `INSERT INTO run_events (run_id, org_id, type, data, seq)
   SELECT r.id, r.org_id, e.type, e.data::jsonb, 0
     FROM agent_runs r, unnest($3::text[], $4::text[]) WITH ORDINALITY AS e(type, data, n)
    WHERE r.id = $1 AND r.org_id = $2
    ORDER BY e.n`,
);
const EVENTS_AFTER = prepared(
  `SELECT seq, type, data, created_at FROM run_events
    WHERE run_id = $1 AND org_id = $2 AND seq > $3
    ORDER BY seq LIMIT $4`,
);
/** A run with its events after $3 (at most $4, as a JSON array): where a stream or a page of the log begins. */
const RUN_WITH_EVENTS_AFTER = prepared(
  `SELECT ${RUN_COLUMNS},
          (SELECT COALESCE(json_agg(json_build_object('seq', e.seq, 'type', e.type, 'data', e.data, 'created_at', e.created_at) ORDER BY e.seq), '[]')
             FROM (SELECT seq, type, data, created_at FROM run_events
                    WHERE run_id = r.id AND org_id = r.org_id AND seq > $3
                    ORDER BY seq LIMIT $4) e) AS "eventsAfter"
     FROM agent_runs r
    WHERE r.id = $1 AND r.org_id = $2`,
);

type EventRow = { seq: number; type: string; data: Record<string, unknown>; created_at: Date | string };

function toStoredEvent(row: EventRow): StoredRunEvent {
  return { seq: row.seq, type: row.type, data: row.data, createdAt: new Date(row.created_at) };
}

/** The event logs of runs. Every method takes the organisation. */
@Injectable()
export class RunEventRepository {
  constructor(private readonly db: DataSource) {}

  /**
   * Inserts events of one run, in order, in one statement; the table's trigger numbers and announces
   * them. Only for a run of that organisation (nothing is written otherwise). Within the caller's
   * transaction when `manager` is given.
   */
  async append(orgId: string, runId: string, events: NewRunEvent[], manager?: EntityManager): Promise<void> {
    if (events.length === 0) return;
    const types = events.map((event) => event.type);
    const data = events.map((event) => JSON.stringify(event.data));
    await (manager ?? this.db).query(APPEND, [runId, orgId, types, data]);
  }

  /** The run's events after `afterSeq`, oldest first, at most `limit`. */
  async after(orgId: string, runId: string, afterSeq: number, limit: number): Promise<StoredRunEvent[]> {
    const rows = (await this.db.query(EVENTS_AFTER, [runId, orgId, afterSeq, limit])) as EventRow[];
    return rows.map(toStoredEvent);
  }

  /** The run (null unless it is the organisation's) and its events after `afterSeq`, at most `limit`, in one statement. */
  async runWithEventsAfter(
    orgId: string,
    runId: string,
    afterSeq: number,
    limit: number,
  ): Promise<{ run: AgentRun; events: StoredRunEvent[] } | null> {
    const [row] = (await this.db.query(RUN_WITH_EVENTS_AFTER, [runId, orgId, afterSeq, limit])) as Array<AgentRun & { eventsAfter: EventRow[] }>;
    if (!row) return null;
    const { eventsAfter, ...run } = row;
    return { run: toAgentRun(run), events: eventsAfter.map(toStoredEvent) };
  }

  /** Whether the run's log holds an event of one of these types (e.g. its terminal event). */
  async holdsAny(orgId: string, runId: string, types: readonly string[]): Promise<boolean> {
    const rows = (await this.db.query(`SELECT 1 FROM run_events WHERE run_id = $1 AND org_id = $2 AND type = ANY($3) LIMIT 1`, [
      runId,
      orgId,
      types,
    ])) as unknown[];
    return rows.length > 0;
  }

  /** Retention, across organisations: drops events older than `cutoff`. How many went. */
  async deleteOlderThan(cutoff: Date): Promise<number> {
    const [row] = (await this.db.query(
      `WITH deleted AS (DELETE FROM run_events WHERE created_at < $1 RETURNING 1) SELECT count(*)::int AS count FROM deleted`,
      [cutoff],
    )) as Array<{ count: number }>;
    return row?.count ?? 0;
  }
}
