import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { AgentRunRepository, RunEventRepository } from '@pylon/agent-runs';
import { createDataSource, onStatementSent, prepared } from '@pylon/db';
import { testInfra } from '../support/infra';
import { applicationOutbox } from '../support/repository-db';

type PreparedStatement = { name: string; statement: string };

/**
 * The statements prepared on the session while `action` ran, read on the one connection of a pool of
 * one. (With PGlite all clients share one session, so statements other clients prepared are there too.)
 */
async function preparedDuring(db: DataSource, action: () => Promise<void>): Promise<PreparedStatement[]> {
  const read = async () => (await db.query(`SELECT name, statement FROM pg_prepared_statements`)) as PreparedStatement[];
  const before = new Set((await read()).map((statement) => statement.name));
  await action();
  return (await read()).filter((statement) => !before.has(statement.name));
}

/**
 * The hot statements are sent as named statements, parsed once per connection, on the real database
 * (native PostgreSQL, or PGlite behind its socket server, which gives each client its own names).
 */
describe('prepared statements', () => {
  const sources: DataSource[] = [];
  const connect = async (preparedStatements: boolean) => {
    const db = await createDataSource({ url: testInfra().databaseUrl, poolSize: 1, applicationName: 'pylon-test', preparedStatements }).initialize();
    sources.push(db);
    return db;
  };
  after(async () => {
    for (const db of sources) await db.destroy();
  });

  it('a marked statement is prepared once on its connection and answers as before; an unmarked one is not prepared', async () => {
    const db = await connect(true);
    const runs = new AgentRunRepository(db, applicationOutbox());
    const events = new RunEventRepository(db);
    const [orgId, runId] = [randomUUID(), randomUUID()];

    const prepared = await preparedDuring(db, async () => {
      for (let i = 0; i < 3; i++) {
        assert.equal(await runs.findById(orgId, runId), null);
        assert.deepEqual(await events.after(orgId, runId, 0, 10), []);
      }
      await runs.deleteQueued(orgId, runId);
    });
    const reads = prepared.filter((statement) => /FROM agent_runs WHERE id = \$1 AND org_id = \$2$/.test(statement.statement));
    const eventReads = prepared.filter((statement) => statement.statement.includes('FROM run_events'));
    assert.equal(reads.length, 1, `the run read is prepared once: ${JSON.stringify(prepared)}`);
    assert.equal(eventReads.length, 1, `the event read is prepared once: ${JSON.stringify(prepared)}`);
    assert.match(reads[0]!.name, /pylon_\d+$/);
    assert.ok(!prepared.some((statement) => statement.statement.includes('DELETE FROM agent_runs')), 'an unmarked statement stays unnamed');
  });

  it('a prepared statement answers each execution with the rows the unnamed statement gives', async () => {
    const [named, unnamed] = [await connect(true), await connect(false)];
    const text = prepared(
      `SELECT n, timestamptz '2026-11-29 07:00:00+00' - make_interval(mins => n) AS at,
              CASE WHEN n % 2 = 0 THEN NULL ELSE 'odd' END AS note, jsonb_build_object('n', n) AS doc
         FROM generate_series(1, $1::int) AS n`,
    );
    for (const count of [1, 3, 0, 2]) {
      const rows = (await named.query(text, [count])) as unknown[];
      assert.equal(rows.length, count);
      assert.deepEqual(rows, await unnamed.query(text, [count]), `${count} rows`);
    }
    assert.deepEqual((await named.query(text, [2])) as unknown[], [
      { n: 1, at: new Date('2026-11-29T06:59:00Z'), note: 'odd', doc: { n: 1 } },
      { n: 2, at: new Date('2026-11-29T06:58:00Z'), note: null, doc: { n: 2 } },
    ]);
  });

  it('DB_PREPARED_STATEMENTS=false (e.g. behind PgBouncer in transaction mode) prepares nothing', async () => {
    const db = await connect(false);
    const runs = new AgentRunRepository(db, applicationOutbox());
    const prepared = await preparedDuring(db, async () => {
      assert.equal(await runs.findById(randomUUID(), randomUUID()), null);
    });
    assert.deepEqual(prepared, []);
  });

  it('a prepared statement refuses a bad parameter with the database error, and the connection keeps working', async () => {
    const db = await connect(true);
    const runs = new AgentRunRepository(db, applicationOutbox());
    await assert.rejects(runs.findById(randomUUID(), 'not-a-uuid'), /invalid input syntax for type uuid/);
    assert.equal(await runs.findById(randomUUID(), randomUUID()), null);
  });

  it('every statement a pool sends, prepared or not and in a transaction too, is told to the listeners until they stop', async () => {
    for (const preparedStatements of [true, false]) {
      const db = await connect(preparedStatements);
      const runs = new AgentRunRepository(db, applicationOutbox());
      const [orgId, runId] = [randomUUID(), randomUUID()];
      const heard: string[] = [];
      const stop = onStatementSent((label) => heard.push(label));
      try {
        await runs.findById(orgId, runId);
        await db.transaction((manager) => manager.query('SELECT 1 AS one'));
      } finally {
        stop();
      }
      await runs.findById(orgId, runId);
      assert.equal(heard.length, 4, `${preparedStatements}: ${JSON.stringify(heard)}`);
      assert.ok(heard[0]!.startsWith('SELECT id, org_id AS "orgId", agent_version_id AS "agentVersionId"'), heard[0]);
      assert.deepEqual(heard.slice(1), ['START TRANSACTION', 'SELECT 1 AS one', 'COMMIT']);
    }
  });
});
