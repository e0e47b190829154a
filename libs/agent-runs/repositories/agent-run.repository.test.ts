import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { DataSource } from 'typeorm';
import { applicationOutbox, insertEndpoint, insertOrganization, repositoryDataSource } from '../../../test/support/repository-db';
import type { AgentRun, EventFactory } from '@pylon/db';
import { AgentRunRepository } from './agent-run.repository';
import { LedgerRepository } from '@pylon/ledger';
import { RunEventRepository } from './run-event.repository';
import { RunActionRepository, type AnswerWrite } from './run-action.repository';
import { RunUsageRepository, type NewRunTurnUsage } from './run-usage.repository';

const describeRun: EventFactory<AgentRun> = (run) => ({
  type: run.status === 'succeeded' ? 'agent_run.succeeded' : 'agent_run.failed',
  data: { run_id: run.id, status: run.status, output: run.output, updated_at: run.updatedAt.toISOString() },
});

const FREE_TURN: NewRunTurnUsage = {
  model: 'local',
  inputTokens: 12,
  outputTokens: 3,
  countedBy: 'tokenizer',
  keySource: null,
  cost: 0,
  charged: true,
  ledgerEntryId: null,
};

/**
 * The run's FINISH on the real migrations: the final state, the model turn that answered, the run's
 * log, the webhook event and its deliveries, all written by one statement, and nothing of it twice.
 */
describe('AgentRunRepository: FINISH on the migrated database', () => {
  let db: DataSource;
  let runs: AgentRunRepository;
  let turns: RunUsageRepository;
  let ledger: LedgerRepository;

  before(async () => {
    db = await repositoryDataSource();
    runs = new AgentRunRepository(db, applicationOutbox());
    turns = new RunUsageRepository(db);
    ledger = new LedgerRepository(db);
  });
  after(async () => {
    await db?.destroy();
  });

  async function runningRun(orgId: string, versionId: string): Promise<AgentRun> {
    const id = randomUUID();
    const inserted = await runs.insertQueued({
      id,
      orgId,
      agentVersionId: versionId,
      input: 'hi',
      idempotencyKey: null,
      requestHash: null,
      createdAt: new Date(),
    });
    assert.deepEqual(inserted, { nothingElseQueued: true });
    return (await runs.markRunning(orgId, id))!.run;
  }

  it('writes the row, the turn, the log, the event and a delivery per subscribed endpoint in one statement', async () => {
    const { orgId, versionId } = await insertOrganization(db);
    const all = await insertEndpoint(db, orgId);
    const subscribed = await insertEndpoint(db, orgId, ['agent_run.succeeded']);
    await insertEndpoint(db, orgId, ['agent_run.failed']);
    const running = await runningRun(orgId, versionId);

    const eventId = await runs.markSucceeded(
      orgId,
      running,
      'the answer',
      describeRun,
      [{ type: 'output_delta', data: { text: 'the answer' } }],
      FREE_TURN,
    );
    assert.ok(eventId, 'an event with deliveries to announce');

    const run = (await runs.findById(orgId, running.id))!;
    assert.equal(run.status, 'succeeded');
    assert.equal(run.output, 'the answer');
    assert.equal(run.error, null);
    assert.ok(run.updatedAt > running.updatedAt);

    const recorded = await turns.turnsOfRun(orgId, running.id);
    assert.deepEqual(
      recorded.map(({ turn, model, inputTokens, outputTokens, countedBy, keySource, cost, charged, ledgerEntryId }) => ({
        turn,
        model,
        inputTokens,
        outputTokens,
        countedBy,
        keySource,
        cost,
        charged,
        ledgerEntryId,
      })),
      [{ turn: 1, ...FREE_TURN }],
    );

    const expected = { run_id: running.id, status: 'succeeded', output: 'the answer', updated_at: run.updatedAt.toISOString() };
    const log = (await db.query(`SELECT seq, type, data FROM run_events WHERE run_id = $1 AND org_id = $2 ORDER BY seq`, [
      running.id,
      orgId,
    ])) as Array<{
      seq: number;
      type: string;
      data: unknown;
    }>;
    assert.deepEqual(
      log.map((entry) => `${entry.seq} ${entry.type}`),
      ['1 queued', '2 running', '3 output_delta', '4 succeeded'],
    );
    assert.deepEqual(log.at(-1)!.data, expected, "the log's final entry carries what the webhook event carries");

    const events = (await db.query(`SELECT id, org_id, type, data FROM events WHERE resource_id = $1`, [running.id])) as Array<
      Record<string, unknown>
    >;
    assert.deepEqual(events, [{ id: eventId, org_id: orgId, type: 'agent_run.succeeded', data: expected }]);
    const deliveries = (await db.query(
      `SELECT endpoint_id, event_type, status, attempt_count FROM webhook_deliveries WHERE event_id = $1 ORDER BY endpoint_id`,
      [eventId],
    )) as Array<Record<string, unknown>>;
    assert.deepEqual(
      deliveries,
      [all, subscribed]
        .sort()
        .map((endpointId) => ({ endpoint_id: endpointId, event_type: 'agent_run.succeeded', status: 'pending', attempt_count: 0 })),
      'one pending delivery per enabled endpoint subscribed to the event, none for the other',
    );
  });

  it('a second finish of the same run changes nothing, records no second event and debits nothing', async () => {
    const { orgId, versionId } = await insertOrganization(db);
    await insertEndpoint(db, orgId);
    await ledger.grant(orgId, 1_000, 'test grant', null);
    const running = await runningRun(orgId, versionId);
    const eventId = await runs.markSucceeded(orgId, running, 'the answer', describeRun, [], FREE_TURN);
    const first = (await runs.findById(orgId, running.id))!;

    // A retried activity whose first try committed: the same event comes back, still unannounced.
    assert.equal(await runs.markSucceeded(orgId, running, 'another answer', describeRun), eventId);
    assert.equal(await runs.markFailed(orgId, running, 'run timed out', describeRun), eventId);
    assert.equal(await runs.markFailedIfQueued(orgId, running, 'cancelled', describeRun), eventId);

    const run = (await runs.findById(orgId, running.id))!;
    assert.deepEqual(
      { status: run.status, output: run.output, error: run.error, updatedAt: run.updatedAt },
      { status: 'succeeded', output: 'the answer', error: null, updatedAt: first.updatedAt },
    );
    assert.equal((await db.query(`SELECT id FROM events WHERE resource_id = $1`, [running.id])).length, 1);
    assert.equal((await db.query(`SELECT id FROM webhook_deliveries WHERE org_id = $1`, [orgId])).length, 1);
    const log = (await db.query(`SELECT type FROM run_events WHERE run_id = $1 ORDER BY seq`, [running.id])) as Array<{ type: string }>;
    assert.deepEqual(
      log.map((entry) => entry.type),
      ['queued', 'running', 'succeeded'],
    );
    assert.equal((await turns.turnsOfRun(orgId, running.id)).length, 1);
    assert.equal(await ledger.balance(orgId), 1_000, 'finishing a run debits nothing');
    assert.equal((await db.query(`SELECT id FROM token_entries WHERE org_id = $1 AND kind = 'debit'`, [orgId])).length, 0);

    // Once a delivery was attempted, the event is no longer handed back.
    await db.query(`UPDATE webhook_deliveries SET attempt_count = 1 WHERE event_id = $1`, [eventId]);
    assert.equal(await runs.markSucceeded(orgId, running, 'again', describeRun), null);
  });

  it('another organisation finishes nothing of the run and sees nothing of it', async () => {
    const { orgId, versionId } = await insertOrganization(db);
    const other = await insertOrganization(db);
    await insertEndpoint(db, orgId);
    await insertEndpoint(db, other.orgId);
    const running = await runningRun(orgId, versionId);

    assert.equal(await runs.markSucceeded(other.orgId, running, 'not yours', describeRun, [], FREE_TURN), null);
    assert.equal(await runs.findById(other.orgId, running.id), null);
    assert.equal(await runs.unannouncedEvent(other.orgId, running.id), null);
    assert.equal((await runs.findById(orgId, running.id))!.status, 'running', 'the run is untouched');
    assert.equal((await db.query(`SELECT 1 FROM events WHERE resource_id = $1`, [running.id])).length, 0);
    assert.deepEqual(await turns.turnsOfRun(other.orgId, running.id), []);
  });

  it('a run with no endpoint to deliver to records its event and has nothing to announce', async () => {
    const { orgId, versionId } = await insertOrganization(db);
    const running = await runningRun(orgId, versionId);
    assert.equal(await runs.markFailed(orgId, running, 'the model failed', describeRun), null);
    const run = (await runs.findById(orgId, running.id))!;
    assert.deepEqual([run.status, run.output, run.error], ['failed', null, 'the model failed']);
    const events = (await db.query(`SELECT type FROM events WHERE resource_id = $1`, [running.id])) as Array<{ type: string }>;
    assert.deepEqual(events, [{ type: 'agent_run.failed' }]);
  });

  it('a turn that marks a running run again gets the tool calls its log holds, in order; a run just started has none', async () => {
    const { orgId, versionId } = await insertOrganization(db);
    const id = randomUUID();
    await runs.insertQueued({ id, orgId, agentVersionId: versionId, input: 'hi', idempotencyKey: null, requestHash: null, createdAt: new Date() });
    assert.deepEqual((await runs.markRunning(orgId, id))?.toolCallsLogged, []);
    const calls = [
      { id: 'call_1', name: 'lookup_order', arguments: '{"order_id":"7"}' },
      { id: 'call_2', name: 'knowledge_search', arguments: '{"query":"refunds"}' },
    ];
    await new RunEventRepository(db).append(orgId, id, [
      { type: 'output_delta', data: { text: 'Looking.' } },
      ...calls.map((call) => ({ type: 'tool_call', data: { call_id: call.id, name: call.name, arguments: call.arguments } })),
    ]);
    const again = await runs.markRunning(orgId, id);
    assert.equal(again?.run.status, 'running');
    assert.deepEqual(again?.toolCallsLogged, calls);
    const other = await insertOrganization(db);
    assert.equal(await runs.markRunning(other.orgId, id), null);
  });

  it('a run that goes on from an answer records it in the statement that reads the run, once; another organisation records nothing', async () => {
    const { orgId, versionId } = await insertOrganization(db);
    const running = await runningRun(orgId, versionId);
    const call = { id: 'call_1', name: 'lookup_order', arguments: '{}' };
    await new RunEventRepository(db).append(orgId, running.id, [
      { type: 'tool_call', data: { call_id: call.id, name: call.name, arguments: call.arguments } },
    ]);
    const actions = new RunActionRepository(db, applicationOutbox());
    const actionId = randomUUID();
    await actions.insert(
      orgId,
      { id: actionId, runId: running.id, type: 'submit_tool_outputs', toolCalls: [call], expiresAt: new Date(Date.now() + 60_000) },
      { type: 'requires_action', data: {} },
      { type: 'agent_run.requires_action', data: { run_id: running.id } },
    );
    const write: AnswerWrite = {
      actionId,
      answer: { type: 'submit_tool_outputs', tool_outputs: [{ tool_call_id: call.id, output: 'shipped' }] },
      answerHash: 'hash',
      log: [{ type: 'tool_result', data: { call_id: call.id, name: call.name, output: 'shipped' } }],
      items: [],
    };
    const other = await insertOrganization(db);
    assert.equal(await runs.markRunning(other.orgId, running.id, write), null);
    assert.equal((await actions.findById(orgId, actionId))?.status, 'pending', "another organisation's id records nothing");

    const resumed = await runs.markRunning(orgId, running.id, write);
    assert.equal(resumed?.run.status, 'running');
    assert.deepEqual(resumed?.toolCallsLogged, [call]);
    const action = await actions.findById(orgId, actionId);
    assert.deepEqual([action?.status, action?.answer, action?.answerHash], ['answered', write.answer, 'hash']);
    await runs.markRunning(orgId, running.id, write);
    const results = (await db.query(`SELECT data FROM run_events WHERE run_id = $1 AND type = 'tool_result'`, [running.id])) as Array<{
      data: unknown;
    }>;
    assert.deepEqual(results, [{ data: write.log[0]!.data }], 'a retried turn records the answer once');
  });
});
