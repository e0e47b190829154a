import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { AgentRunRepository, RunUsageRepository } from '@pylon/agent-runs';
import { createDataSource, type AgentRun, type EventFactory } from '@pylon/db';
import { sql } from '../support/db';
import { applicationOutbox } from '../support/repository-db';
import { Http } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { createTenant, type Tenant } from '../support/tenant';

const describeRun: EventFactory<AgentRun> = (run) => ({
  type: run.status === 'succeeded' ? 'agent_run.succeeded' : 'agent_run.failed',
  data: { run_id: run.id, status: run.status },
});

/**
 * The run projection's promises to a retried activity, on the real database: a final step that is
 * repeated (its first try committed, its completion was lost) neither changes the run nor records a
 * second event, and hands back the event whose deliveries were never attempted, so it is announced.
 */
describe('the run projection under retries', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let db: DataSource;
  let runs: AgentRunRepository;

  before(async () => {
    stack = await Stack.start({ env: { WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback' } });
    http = new Http(stack.url);
    tenant = await createTenant(http);
    // An endpoint that owes a delivery for every run event: without one there is nothing to announce.
    const endpoint = await http.post('/api/v1/webhook-endpoints', {
      token: tenant.key,
      body: { org_id: tenant.orgId, url: 'http://127.0.0.1:9/hooks' },
    });
    assert.equal(endpoint.status, 201, endpoint.text);
    db = await createDataSource({ url: testInfra().databaseUrl, poolSize: 2, applicationName: 'pylon-test' }).initialize();
    runs = new AgentRunRepository(db, applicationOutbox());
  });
  after(async () => {
    await db?.destroy();
    await stack?.stop();
  });

  async function queuedRun(): Promise<string> {
    const id = randomUUID();
    const inserted = await runs.insertQueued({
      id,
      orgId: tenant.orgId,
      agentVersionId: tenant.versionId,
      input: 'hi',
      idempotencyKey: null,
      requestHash: null,
      createdAt: new Date(),
    });
    assert.ok(inserted);
    return id;
  }

  it('a repeated success returns the same unannounced event and records no second one', async () => {
    const runId = await queuedRun();
    const running = (await runs.markRunning(tenant.orgId, runId))!.run;
    assert.equal(running.status, 'running');
    const eventId = await runs.markSucceeded(tenant.orgId, running, 'the answer', describeRun);
    assert.ok(eventId, 'the success recorded an event with a delivery');

    assert.equal(await runs.markSucceeded(tenant.orgId, running, 'another answer', describeRun), eventId);
    assert.equal(await runs.unannouncedEvent(tenant.orgId, runId), eventId);
    assert.equal((await runs.markRunning(tenant.orgId, runId))?.run.status, 'succeeded', 'a retried turn sees the run final');

    const run = await runs.findById(tenant.orgId, runId);
    assert.equal(run?.status, 'succeeded');
    assert.equal(run?.output, 'the answer');
    assert.ok(run?.updatedAt instanceof Date && run.createdAt instanceof Date);
    const events = await sql(`SELECT id, data FROM events WHERE resource_id = $1`, [runId]);
    assert.equal(events.length, 1);
    assert.deepEqual(events[0]!.data, { run_id: runId, status: 'succeeded' }, 'data without an updated_at gets none');
  });

  it("the final events carry the run's new updated_at, set by the database in the same statement", async () => {
    const runId = await queuedRun();
    const running = (await runs.markRunning(tenant.orgId, runId))!.run;
    const withTimes: EventFactory<AgentRun> = (run) => ({
      type: 'agent_run.succeeded',
      data: { run_id: run.id, status: run.status, output: run.output, updated_at: run.updatedAt.toISOString() },
    });
    const eventId = await runs.markSucceeded(tenant.orgId, running, 'the answer', withTimes, [
      { type: 'output_delta', data: { text: 'the answer' } },
    ]);
    const run = (await runs.findById(tenant.orgId, runId))!;
    assert.ok(run.updatedAt > running.updatedAt, 'updated_at moved on');
    const expected = { run_id: runId, status: 'succeeded', output: 'the answer', updated_at: run.updatedAt.toISOString() };
    const [event] = await sql(`SELECT data FROM events WHERE id = $1`, [eventId]);
    assert.deepEqual(event!.data, expected);
    const log = await sql(`SELECT seq, type, data FROM run_events WHERE run_id = $1 ORDER BY seq`, [runId]);
    assert.deepEqual(
      log.map((entry) => [entry.seq, entry.type, entry.data]),
      [
        [1, 'queued', { status: 'queued' }],
        [2, 'running', { status: 'running' }],
        [3, 'output_delta', { text: 'the answer' }],
        [4, 'succeeded', expected],
      ],
    );
  });

  it('a run with no endpoint to deliver to records its event and has nothing to announce', async () => {
    const other = await createTenant(http);
    const id = randomUUID();
    await runs.insertQueued({
      id,
      orgId: other.orgId,
      agentVersionId: other.versionId,
      input: 'hi',
      idempotencyKey: null,
      requestHash: null,
      createdAt: new Date(),
    });
    const running = (await runs.markRunning(other.orgId, id))!.run;
    assert.equal(await runs.markFailed(other.orgId, running, 'the model failed', describeRun), null);
    assert.equal((await runs.findById(other.orgId, id))?.error, 'the model failed');
    assert.equal((await sql(`SELECT id FROM events WHERE resource_id = $1`, [id])).length, 1);
  });

  it('a failure after a success changes nothing', async () => {
    const runId = await queuedRun();
    const running = (await runs.markRunning(tenant.orgId, runId))!.run;
    const eventId = await runs.markSucceeded(tenant.orgId, running, 'done', describeRun);
    assert.equal(await runs.markFailed(tenant.orgId, running, 'run timed out after 1 seconds', describeRun), eventId);
    const run = await runs.findById(tenant.orgId, runId);
    assert.equal(run?.status, 'succeeded');
    assert.equal(run?.error, null);
  });

  it('once its deliveries were attempted, the event is no longer handed back', async () => {
    const runId = await queuedRun();
    const running = (await runs.markRunning(tenant.orgId, runId))!.run;
    const eventId = await runs.markSucceeded(tenant.orgId, running, 'done', describeRun);
    await sql(`UPDATE webhook_deliveries SET attempt_count = 1 WHERE event_id = $1`, [eventId]);
    assert.equal(await runs.unannouncedEvent(tenant.orgId, runId), null);
    assert.equal(await runs.markSucceeded(tenant.orgId, running, 'again', describeRun), null);
  });

  it('another organisation sees no run', async () => {
    const runId = await queuedRun();
    assert.equal(await runs.findById(randomUUID(), runId), null);
    assert.equal(await runs.markRunning(randomUUID(), runId), null);
    const run = (await runs.findById(tenant.orgId, runId))!;
    assert.equal(await runs.markFailed(randomUUID(), run, 'not yours', describeRun), null);
    assert.equal((await runs.findById(tenant.orgId, runId))?.status, 'queued', 'nothing changed');
    assert.equal((await sql(`SELECT id FROM events WHERE resource_id = $1`, [runId])).length, 0);
  });

  it("a success with its free turn records the turn in the same statement, numbered after the run's turns, as recordTurn would", async () => {
    const runId = await queuedRun();
    const running = (await runs.markRunning(tenant.orgId, runId))!.run;
    const usage = new RunUsageRepository(db);
    const turn = (inputTokens: number) => ({
      model: 'local/extractive',
      inputTokens,
      outputTokens: 3,
      countedBy: 'tokenizer' as const,
      keySource: null,
      cost: 0,
      charged: true,
      ledgerEntryId: null,
    });
    await usage.recordTurn(null, tenant.orgId, runId, turn(10));
    const eventId = await runs.markSucceeded(tenant.orgId, running, 'the answer', describeRun, [], turn(20));
    assert.ok(eventId);
    // A retried turn whose answer was recorded already: the run stays as it was, the turn is recorded (as on its own).
    assert.equal(await runs.markSucceeded(tenant.orgId, running, 'another answer', describeRun, [], turn(30)), eventId);
    const turns = await usage.turnsOfRun(tenant.orgId, runId);
    assert.deepEqual(
      turns.map((row) => [row.turn, row.inputTokens, row.outputTokens, row.countedBy, row.cost, row.charged, row.ledgerEntryId]),
      [
        [1, 10, 3, 'tokenizer', 0, true, null],
        [2, 20, 3, 'tokenizer', 0, true, null],
        [3, 30, 3, 'tokenizer', 0, true, null],
      ],
    );
    assert.equal((await runs.findById(tenant.orgId, runId))?.output, 'the answer');
    assert.equal((await sql(`SELECT id FROM events WHERE resource_id = $1`, [runId])).length, 1);
  });
});
