/**
 * A batch of agent runs submitted the way a batch job would (a few connections, each sending the next
 * item as soon as the last was answered, honouring 429 with Retry-After), and the organisation's backlog
 * read from the database while it drains.
 */
import { randomBytes } from 'node:crypto';
import { Client as PgClient } from 'pg';
import type { Http } from '../test/support/http';
import type { Tenant } from '../test/support/tenant';
import { round, sleep } from './support';

export interface Submitted {
  accepted: number;
  /** 429 answers waited out (Retry-After) and sent again. */
  refusals: number;
  /** Anything else: a failed submission. */
  errors: string[];
  submitMs: number;
}

export async function submitBatch(http: Http, tenant: Tenant, count: number, connections: number, label: string): Promise<Submitted> {
  const result: Submitted = { accepted: 0, refusals: 0, errors: [], submitMs: 0 };
  const batchId = randomBytes(6).toString('hex');
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      while (next < count) {
        const item = next++;
        for (;;) {
          const created = await http.post('/api/v1/agent-runs', {
            token: tenant.key,
            body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: `${label} ${item}` },
            headers: { 'idempotency-key': `${batchId}-${item}` },
          });
          if (created.status === 200) result.accepted++;
          else if (created.status === 429) {
            result.refusals++;
            await sleep(Number(created.headers.get('retry-after') ?? '1') * 1000);
            continue;
          } else if (result.errors.length < 5) result.errors.push(`${created.status} ${created.text}`);
          break;
        }
      }
    }),
  );
  result.submitMs = performance.now() - started;
  if (result.errors.length > 0) throw new Error(`${label}: ${count - result.accepted} runs not submitted, e.g. ${result.errors[0]}`);
  return result;
}

export interface BacklogState {
  queued: number;
  running: number;
  succeeded: number;
  failed: number;
  /** First created_at → last updated_at of the succeeded runs, ms. */
  spanMs: number;
}

/** Reads an organisation's runs by status straight from the database (what the API would page through). */
export class BacklogReader {
  private constructor(private readonly db: PgClient) {}

  static async open(databaseUrl: string): Promise<BacklogReader> {
    const db = new PgClient({ connectionString: databaseUrl });
    await db.connect();
    return new BacklogReader(db);
  }

  async state(orgId: string): Promise<BacklogState> {
    const { rows } = await this.db.query<{ status: string; n: number; span_ms: number | null }>(
      `SELECT status, count(*)::int AS n, (EXTRACT(EPOCH FROM max(updated_at) - min(created_at)) * 1000)::float8 AS span_ms
         FROM agent_runs WHERE org_id = $1 GROUP BY status`,
      [orgId],
    );
    const of = (status: string) => rows.find((row) => row.status === status);
    return {
      queued: of('queued')?.n ?? 0,
      running: of('running')?.n ?? 0,
      succeeded: of('succeeded')?.n ?? 0,
      failed: of('failed')?.n ?? 0,
      spanMs: round(of('succeeded')?.span_ms ?? 0, 0),
    };
  }

  /** Waits until none of the organisation's runs is queued or running; the state then. */
  async drained(orgId: string, timeoutMs: number): Promise<BacklogState> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const state = await this.state(orgId);
      if (state.queued + state.running === 0) return state;
      if (Date.now() > deadline) throw new Error(`the backlog of ${orgId} did not drain within ${timeoutMs} ms: ${JSON.stringify(state)}`);
      await sleep(250);
    }
  }

  close(): Promise<void> {
    return this.db.end();
  }
}
