import { Injectable } from '@nestjs/common';
import { DataSource } from 'typeorm';
import { isoTimestamp } from '@pylon/db';

/** The two windows a usage report covers, as `[name, since]`: each statement counts both in one round trip. */
export interface UsageWindows {
  /** now − 24 h */
  day: Date;
  /** now − 30 days */
  month: Date;
}

const WINDOWS = `(VALUES ('24h', $2::timestamptz), ('30d', $3::timestamptz)) AS w(name, since)`;

/**
 * Per window, the organisation's rows of `table` created since its start: `total`, and one count per
 * group of `column` values. Built once, from the fixed names below: no input reaches the text.
 */
function countsByStatus(table: string, column: string, groups: Record<string, readonly string[]>): string {
  const names = Object.keys(groups);
  const counts = names.map((name) => {
    const values = groups[name]!.map((value) => `'${value}'`).join(', ');
    return `count(*) FILTER (WHERE ${column} IN (${values}))::int AS ${name}`;
  });
  return `
    SELECT w.name AS "window", c.total, ${names.map((name) => `c.${name}`).join(', ')}
    FROM ${WINDOWS}
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS total, ${counts.join(',\n        ')}
      FROM ${table} WHERE org_id = $1 AND created_at >= w.since
    ) c`;
}

/**
 * The statements of a usage report, each scoped by `$1` = the organisation and bounded by the windows' start
 * (`$2` = now − 24 h, `$3` = now − 30 days): every one is a range scan of an index on `(org_id, time)`
 * (migration 1765300000000-usage), index-only for the counts. Exported so that the benchmark runs exactly
 * these texts raw beside the API.
 */
export const USAGE_SQL = {
  /** Runs per status, and the p50/p95 duration (updated_at − created_at) of the finished ones. */
  runs: `
    SELECT w.name AS "window", r.total, r.succeeded, r.failed, r.in_progress,
      (extract(epoch FROM r.durations[1]) * 1000)::float8 AS p50_ms, (extract(epoch FROM r.durations[2]) * 1000)::float8 AS p95_ms,
      (SELECT count(*)::int FROM agent_runs c
        WHERE c.org_id = $1 AND c.created_at >= w.since AND c.status = 'failed' AND c.error = 'cancelled') AS cancelled
    FROM ${WINDOWS}
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS total,
        count(*) FILTER (WHERE status = 'succeeded')::int AS succeeded,
        count(*) FILTER (WHERE status = 'failed')::int AS failed,
        count(*) FILTER (WHERE status IN ('queued', 'running'))::int AS in_progress,
        percentile_cont(ARRAY[0.5, 0.95]) WITHIN GROUP (ORDER BY updated_at - created_at)
          FILTER (WHERE status IN ('succeeded', 'failed')) AS durations
      FROM agent_runs WHERE org_id = $1 AND created_at >= w.since
    ) r`,
  documents: countsByStatus('knowledge_documents', 'status', { ready: ['ready'], failed: ['failed'], processing: ['processing'] }),
  videos: countsByStatus('video_generations', 'state', { completed: ['completed'], failed: ['failed'], in_progress: ['pending', 'processing'] }),
  deliveries: countsByStatus('webhook_deliveries', 'status', { delivered: ['delivered'], failed: ['failed'], pending: ['pending'] }),
  tokens: `
    SELECT w.name AS "window", t.granted, t.debited, t.refunded
    FROM ${WINDOWS}
    CROSS JOIN LATERAL (
      SELECT coalesce(sum(amount) FILTER (WHERE kind = 'grant'), 0)::bigint AS granted,
        coalesce(sum(amount) FILTER (WHERE kind = 'debit'), 0)::bigint AS debited,
        coalesce(sum(amount) FILTER (WHERE kind = 'refund'), 0)::bigint AS refunded
      FROM token_entries WHERE org_id = $1 AND created_at >= w.since
    ) t`,
  /** Model turns of runs, their tokens, and the service tokens runs were charged (agent_run_turns). */
  models: `
    SELECT w.name AS "window", m.turns, m.input_tokens, m.output_tokens, m.run_cost_tokens
    FROM ${WINDOWS}
    CROSS JOIN LATERAL (
      SELECT count(*)::int AS turns, coalesce(sum(input_tokens), 0)::bigint AS input_tokens,
        coalesce(sum(output_tokens), 0)::bigint AS output_tokens, coalesce(sum(cost) FILTER (WHERE charged), 0)::bigint AS run_cost_tokens
      FROM agent_run_turns WHERE org_id = $1 AND created_at >= w.since
    ) m`,
  /**
   * Endpoints with failing attempts (no answer, or not 2xx) or deliveries that ended failed in the last 24 h,
   * worst first, at most 10; the error of the latest failure of each.
   */
  failingEndpoints: `
    WITH failures AS (
      SELECT d.endpoint_id, a.started_at AS at, 1 AS attempt, 0 AS delivery,
        coalesce(a.error, 'HTTP ' || a.status_code) AS error
      FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id AND d.org_id = $1
      WHERE a.org_id = $1 AND a.started_at >= $2 AND (a.status_code IS NULL OR a.status_code < 200 OR a.status_code >= 300)
      UNION ALL
      SELECT endpoint_id, updated_at, 0, 1, coalesce(last_error, 'HTTP ' || last_status_code)
      FROM webhook_deliveries WHERE org_id = $1 AND status = 'failed' AND updated_at >= $2
    ), per_endpoint AS (
      SELECT endpoint_id, sum(attempt)::int AS failed_attempts, sum(delivery)::int AS failed_deliveries, max(at) AS last_failure_at,
        (array_agg(error ORDER BY at DESC) FILTER (WHERE error IS NOT NULL))[1] AS last_error
      FROM failures GROUP BY endpoint_id
    )
    SELECT p.endpoint_id, e.url, e.enabled, p.failed_attempts, p.failed_deliveries,
      ${isoTimestamp('p.last_failure_at')} AS last_failure_at, p.last_error
    FROM per_endpoint p JOIN webhook_endpoints e ON e.id = p.endpoint_id AND e.org_id = $1
    ORDER BY p.failed_deliveries + p.failed_attempts DESC, p.last_failure_at DESC, p.endpoint_id
    LIMIT 10`,
  /**
   * The newest failures of the kinds asked for (`$2`, a text array of `agent_run`, `knowledge_document`,
   * `video_generation`, `webhook_delivery`): the 10 newest of each kind by creation (by failure, for a
   * delivery), then the 10 latest of those by when they failed. A cancelled run is not a failure here.
   */
  recentFailures: `
    SELECT kind, id, reason, ${isoTimestamp('at')} AS at FROM (
      (SELECT 'agent_run' AS kind, id, error AS reason, updated_at AS at FROM agent_runs
        WHERE org_id = $1 AND status = 'failed' AND error IS DISTINCT FROM 'cancelled' AND 'agent_run' = ANY($2::text[])
        ORDER BY created_at DESC LIMIT 10)
      UNION ALL
      (SELECT 'knowledge_document', id, failure_reason, updated_at FROM knowledge_documents
        WHERE org_id = $1 AND status = 'failed' AND 'knowledge_document' = ANY($2::text[])
        ORDER BY created_at DESC LIMIT 10)
      UNION ALL
      (SELECT 'video_generation', id, failure_reason, updated_at FROM video_generations
        WHERE org_id = $1 AND state = 'failed' AND 'video_generation' = ANY($2::text[])
        ORDER BY created_at DESC LIMIT 10)
      UNION ALL
      (SELECT 'webhook_delivery', id, coalesce(last_error, 'HTTP ' || last_status_code), updated_at FROM webhook_deliveries
        WHERE org_id = $1 AND status = 'failed' AND 'webhook_delivery' = ANY($2::text[])
        ORDER BY updated_at DESC LIMIT 10)
    ) failures
    ORDER BY failures.at DESC, id DESC
    LIMIT 10`,
  /** The organisation's keys that are not revoked, with their requests in the hours overlapping each window. */
  apiKeys: `
    SELECT k.id AS key_id, k.name, k.hint, ${isoTimestamp('k.last_used_at')} AS last_used_at,
      coalesce(c.requests_24h, 0)::bigint AS requests_24h, coalesce(c.requests_30d, 0)::bigint AS requests_30d
    FROM api_keys k
    LEFT JOIN (
      SELECT key_id,
        sum(requests) FILTER (WHERE hour > $2::timestamptz - interval '1 hour') AS requests_24h,
        sum(requests) AS requests_30d
      FROM api_key_request_counts WHERE org_id = $1 AND hour > $3::timestamptz - interval '1 hour'
      GROUP BY key_id
    ) c ON c.key_id = k.id
    WHERE k.org_id = $1 AND k.revoked_at IS NULL
    ORDER BY k.created_at DESC, k.id DESC`,
} as const;

/** Adds each (key, hour)'s requests to what is stored, one statement for every key a process counted. */
const ADD_KEY_REQUESTS = `
  INSERT INTO api_key_request_counts (org_id, key_id, hour, requests)
  SELECT * FROM unnest($1::uuid[], $2::uuid[], $3::timestamptz[], $4::bigint[])
  ON CONFLICT (key_id, hour) DO UPDATE SET requests = api_key_request_counts.requests + EXCLUDED.requests`;

type WindowName = '24h' | '30d';
export type WindowRow<T> = { window: WindowName } & T;

export interface ModelTurnCounts {
  turns: number;
  input_tokens: number;
  output_tokens: number;
  run_cost_tokens: number;
}

export interface RunCounts {
  total: number;
  succeeded: number;
  /** Failed, cancelled ones included (see `cancelled`). */
  failed: number;
  cancelled: number;
  in_progress: number;
  /** Of the finished runs, in milliseconds; null when none finished. */
  p50_ms: number | null;
  p95_ms: number | null;
}

export interface FailingEndpointRow {
  endpoint_id: string;
  url: string;
  enabled: boolean;
  failed_attempts: number;
  failed_deliveries: number;
  last_failure_at: string;
  last_error: string | null;
}

export type FailureKind = 'agent_run' | 'knowledge_document' | 'video_generation' | 'webhook_delivery';

export interface FailureRow {
  kind: FailureKind;
  id: string;
  reason: string | null;
  at: string;
}

export interface KeyRequestRow {
  key_id: string;
  name: string;
  hint: string;
  last_used_at: string | null;
  requests_24h: number;
  requests_30d: number;
}

export interface KeyRequestCount {
  orgId: string;
  keyId: string;
  hour: Date;
  requests: number;
}

const wholeMs = (value: unknown) => (value === null || value === undefined ? null : Math.round(Number(value)));

const windowArgs = (orgId: string, windows: UsageWindows) => [orgId, windows.day, windows.month];

/** The usage report's SQL (see USAGE_SQL) and the per-key request counts it reads. */
@Injectable()
export class UsageRepository {
  constructor(private readonly db: DataSource) {}

  async runs(orgId: string, windows: UsageWindows): Promise<Array<WindowRow<RunCounts>>> {
    const rows = (await this.db.query(USAGE_SQL.runs, windowArgs(orgId, windows))) as Array<Record<string, unknown>>;
    return rows.map((row) => ({
      window: row.window as WindowName,
      total: row.total as number,
      succeeded: row.succeeded as number,
      failed: row.failed as number,
      cancelled: row.cancelled as number,
      in_progress: row.in_progress as number,
      p50_ms: wholeMs(row.p50_ms),
      p95_ms: wholeMs(row.p95_ms),
    }));
  }

  documents(orgId: string, windows: UsageWindows): Promise<Array<WindowRow<{ total: number; ready: number; failed: number; processing: number }>>> {
    return this.db.query(USAGE_SQL.documents, windowArgs(orgId, windows));
  }

  videos(orgId: string, windows: UsageWindows): Promise<Array<WindowRow<{ total: number; completed: number; failed: number; in_progress: number }>>> {
    return this.db.query(USAGE_SQL.videos, windowArgs(orgId, windows));
  }

  deliveries(orgId: string, windows: UsageWindows): Promise<Array<WindowRow<{ total: number; delivered: number; failed: number; pending: number }>>> {
    return this.db.query(USAGE_SQL.deliveries, windowArgs(orgId, windows));
  }

  async models(orgId: string, windows: UsageWindows): Promise<Array<WindowRow<ModelTurnCounts>>> {
    const rows = (await this.db.query(USAGE_SQL.models, windowArgs(orgId, windows))) as Array<Record<string, string | number>>;
    return rows.map((row) => ({
      window: row.window as WindowName,
      turns: Number(row.turns),
      input_tokens: Number(row.input_tokens),
      output_tokens: Number(row.output_tokens),
      run_cost_tokens: Number(row.run_cost_tokens),
    }));
  }

  async tokens(orgId: string, windows: UsageWindows): Promise<Array<WindowRow<{ granted: number; debited: number; refunded: number }>>> {
    const rows = (await this.db.query(USAGE_SQL.tokens, windowArgs(orgId, windows))) as Array<Record<string, string>>;
    return rows.map((row) => ({
      window: row.window as WindowName,
      granted: Number(row.granted),
      debited: Number(row.debited),
      refunded: Number(row.refunded),
    }));
  }

  failingEndpoints(orgId: string, since: Date): Promise<FailingEndpointRow[]> {
    return this.db.query(USAGE_SQL.failingEndpoints, [orgId, since]);
  }

  recentFailures(orgId: string, kinds: FailureKind[]): Promise<FailureRow[]> {
    if (kinds.length === 0) return Promise.resolve([]);
    return this.db.query(USAGE_SQL.recentFailures, [orgId, kinds]);
  }

  async apiKeys(orgId: string, windows: UsageWindows): Promise<KeyRequestRow[]> {
    const rows = (await this.db.query(USAGE_SQL.apiKeys, windowArgs(orgId, windows))) as Array<Record<string, unknown>>;
    return rows.map((row) => ({
      key_id: row.key_id as string,
      name: row.name as string,
      hint: row.hint as string,
      last_used_at: row.last_used_at as string | null,
      requests_24h: Number(row.requests_24h),
      requests_30d: Number(row.requests_30d),
    }));
  }

  /** Adds counted requests (of any organisations: each row carries its own) to the stored hourly counts. */
  async addKeyRequests(counts: KeyRequestCount[]): Promise<void> {
    if (counts.length === 0) return;
    await this.db.query(ADD_KEY_REQUESTS, [
      counts.map((count) => count.orgId),
      counts.map((count) => count.keyId),
      counts.map((count) => count.hour),
      counts.map((count) => count.requests),
    ]);
  }

  /** Retention: drops hourly counts older than `before`, of every organisation. */
  async deleteKeyRequestsBefore(before: Date): Promise<number> {
    const result = (await this.db.query(`DELETE FROM api_key_request_counts WHERE hour < $1`, [before])) as [unknown, number];
    return result[1] ?? 0;
  }
}
