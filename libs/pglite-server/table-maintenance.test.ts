import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { SessionLock } from './session-lock';
import { TableMaintenance } from './table-maintenance';

describe('table maintenance of the embedded database', () => {
  let db: PGlite;
  let lock: SessionLock;
  let maintenance: TableMaintenance;
  const warnings: string[] = [];
  const orgId = randomUUID();

  before(async () => {
    db = await PGlite.create();
    lock = new SessionLock();
    maintenance = new TableMaintenance(db, lock, (message) => warnings.push(message));
    // The shape of agent_runs' two indexes that tie without statistics: by id, and by organisation.
    await db.exec(`CREATE TABLE runs (id uuid PRIMARY KEY, org_id uuid NOT NULL, status text NOT NULL, input text NOT NULL DEFAULT repeat('x', 200), created_at timestamptz NOT NULL DEFAULT now());
                   CREATE INDEX runs_org_created ON runs (org_id, created_at) INCLUDE (status);
                   CREATE TABLE quiet (id int PRIMARY KEY)`);
    await db.query(`INSERT INTO runs (id, org_id, status) SELECT gen_random_uuid(), $1, 'queued' FROM generate_series(1, 2000)`, [orgId]);
    await db.query(`INSERT INTO quiet SELECT generate_series(1, 10)`);
  });
  after(async () => {
    await maintenance.stop();
    await db.close();
  });

  /** The session's counts of changed and dead rows reach the statistics at most once a second: now, for the test. */
  const flushStats = async () => {
    await db.query(`SELECT pg_stat_force_next_flush()`);
    await db.query(`SELECT 1`);
  };
  const stats = async (table: string) =>
    (
      await db.query<{ analyzed: boolean; vacuumed: boolean }>(
        `SELECT last_analyze IS NOT NULL AS analyzed, last_vacuum IS NOT NULL AS vacuumed FROM pg_stat_user_tables WHERE relname = $1`,
        [table],
      )
    ).rows[0]!;

  it('analyzes a table past 50 + 10% of its rows changed, and leaves the others; a run is then read by its id', async () => {
    await flushStats();
    assert.deepEqual(await maintenance.runPass(), [{ table: 'public.runs', action: 'ANALYZE' }]);
    assert.deepEqual(await stats('runs'), { analyzed: true, vacuumed: false });
    assert.deepEqual(await stats('quiet'), { analyzed: false, vacuumed: false });

    const [{ id }] = (await db.query<{ id: string }>(`SELECT id FROM runs LIMIT 1`)).rows as [{ id: string }];
    const plan = (await db.query<{ 'QUERY PLAN': string }>(`EXPLAIN SELECT * FROM runs WHERE id = $1 AND org_id = $2`, [id, orgId])).rows;
    assert.match(plan[0]!['QUERY PLAN'], /using runs_pkey/, JSON.stringify(plan));
    assert.deepEqual(await maintenance.runPass(), [], 'nothing is due right after');
  });

  it('vacuums (and analyzes) a table past 50 + 20% of its rows dead', async () => {
    await db.query(`UPDATE runs SET status = 'running'`);
    await flushStats();
    assert.deepEqual(await maintenance.runPass(), [{ table: 'public.runs', action: 'VACUUM (ANALYZE)' }]);
    assert.deepEqual(await stats('runs'), { analyzed: true, vacuumed: true });
    const [{ dead }] = (await db.query<{ dead: number }>(`SELECT n_dead_tup::int AS dead FROM pg_stat_user_tables WHERE relname = 'runs'`)).rows as [
      { dead: number },
    ];
    assert.equal(dead, 0);
  });

  it("waits for the session: a pass runs between clients' turns, never inside one", async () => {
    await db.query(`UPDATE runs SET status = 'succeeded'`);
    await flushStats();
    const release = await lock.acquire();
    let passed = false;
    const pass = maintenance.runPass().then((done) => ((passed = true), done));
    await new Promise((resolve) => setTimeout(resolve, 100));
    assert.equal(passed, false, 'the pass waited while a client held the session');
    release();
    assert.deepEqual(await pass, [{ table: 'public.runs', action: 'VACUUM (ANALYZE)' }]);
    assert.deepEqual(warnings, []);
  });
});
