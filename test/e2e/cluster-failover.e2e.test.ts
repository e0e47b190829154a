import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { grantTokens } from '../support/ledger';
import { OwnCluster } from '../support/own-cluster';
import { CLUSTER_TOPOLOGY, Stack } from '../support/stack';
import { createTenant, createVersion, type Tenant } from '../support/tenant';
import { pause, holdsFor, until } from '../support/wait';
import { WebhookReceiver } from '../support/webhook-receiver';

/** A request that has not answered in this long counts as hung. */
const REQUEST_TIMEOUT_MS = 20_000;
/** Every 5xx an API answers must be one docs/api.md lists, with the meaning "retry". */
const DOCUMENTED_5XX = new Set(['500 orchestrator_unavailable', '503 service_unavailable', '503 database_unavailable']);
/** A video costs this many tokens (libs/contracts VIDEO_COST). */
const VIDEO_TOKENS = 500_000;

/** How one create fared: its final answer and what it met before (5xx answers, dropped connections). */
interface Outcome {
  status: number;
  body: any;
  failures: string[];
}

/**
 * Failover on the cluster topology, each scenario counting what was lost and what was doubled: one API
 * replica or one worker killed with SIGKILL, the Temporal server restarted, Pylon's PostgreSQL restarted,
 * all in the middle of load. The topology is this file's own (a Temporal server on its own PostgreSQL, a
 * PostgreSQL for Pylon's data, two API replicas behind one port, two workers), so that restarting its
 * servers disturbs no other test.
 */
describe('failover on the cluster topology', { skip: !CLUSTER_TOPOLOGY && 'runs on the cluster topology (PYLON_TEST_TOPOLOGY=cluster)' }, () => {
  let cluster: OwnCluster;
  let fake: FakeOpenAi;
  let receiver: WebhookReceiver;
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let slowVersionId: string;
  const query = <T = any>(text: string, params: unknown[] = []) => cluster.query<T>(text, params);

  /** POST with an Idempotency-Key, retried with the same key after a 5xx or a dropped connection, as a client should. */
  const createDurably = async (path: string, body: Record<string, unknown>, idempotencyKey = randomUUID()): Promise<Outcome> => {
    const failures: string[] = [];
    for (let attempt = 1; attempt <= 120; attempt++) {
      let retryAfterMs = 250;
      try {
        const response = await fetch(`${stack.url}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${tenant.key}`, 'content-type': 'application/json', 'idempotency-key': idempotencyKey },
          body: JSON.stringify(body),
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        const parsed = (await response.json()) as any;
        if (response.status < 500) return { status: response.status, body: parsed, failures };
        failures.push(`${response.status} ${parsed.error}`);
        retryAfterMs = Number(response.headers.get('retry-after') ?? 0.25) * 1000;
      } catch (error) {
        failures.push((error as Error).name === 'TimeoutError' ? 'hung' : 'connection dropped');
      }
      await pause(retryAfterMs); // the client's back-off: Retry-After, else 250 ms
    }
    throw new Error(`${path} was not accepted after 120 attempts: ${failures.join(', ')}`);
  };

  /** `count` runs, one started every `spacingMs`, on the version whose model call takes 1.5 s. */
  const burstOfRuns = (count: number, spacingMs: number, label: string): Promise<Outcome[]> =>
    Promise.all(
      Array.from({ length: count }, async (_, i) => {
        await pause(i * spacingMs); // the load's shape: one create every spacingMs
        return createDurably('/api/v1/agent-runs', { org_id: tenant.orgId, agent_version_id: slowVersionId, input: `${label} ${i}` });
      }),
    );

  const waitUntil = (what: string, done: () => Promise<boolean>, timeoutMs = 180_000) => until(what, done, { timeoutMs, intervalMs: 250 });

  /** Every run of these outcomes succeeded, once: one row each, one succeeded event each, no run left over. */
  const assertRunsSucceededOnce = async (outcomes: Outcome[]) => {
    assert.deepEqual(
      outcomes.filter((outcome) => outcome.status !== 200),
      [],
    );
    const runIds = outcomes.map((outcome) => outcome.body.run_id as string);
    assert.equal(new Set(runIds).size, runIds.length, 'each create made its own run');
    await waitUntil(`${runIds.length} runs finishing`, async () => {
      const [row] = await query<{ open: number }>(
        `SELECT count(*)::int AS open FROM agent_runs WHERE id = ANY($1) AND status NOT IN ('succeeded', 'failed')`,
        [runIds],
      );
      return row!.open === 0;
    });
    const rows = await query<{ id: string; status: string; output: string }>('SELECT id, status, output FROM agent_runs WHERE id = ANY($1)', [
      runIds,
    ]);
    assert.equal(rows.length, runIds.length, 'lost: runs without a row');
    assert.deepEqual(
      rows.filter((row) => row.status !== 'succeeded' || row.output !== 'answer after a pause'),
      [],
    );
    const events = await query<{ resource_id: string; n: number }>(
      `SELECT resource_id, count(*)::int AS n FROM events WHERE type = 'agent_run.succeeded' AND resource_id = ANY($1) GROUP BY resource_id`,
      [runIds],
    );
    assert.equal(events.length, runIds.length, 'lost: runs without their succeeded event');
    assert.deepEqual(
      events.filter((event) => event.n !== 1),
      [],
      'doubled: runs with more than one succeeded event',
    );
  };

  const assertFailuresDocumented = (outcomes: Outcome[]) => {
    const seen = outcomes.flatMap((outcome) => outcome.failures);
    assert.ok(!seen.includes('hung'), `a request hung for ${REQUEST_TIMEOUT_MS} ms`);
    assert.deepEqual(
      seen.filter((failure) => failure !== 'connection dropped' && !DOCUMENTED_5XX.has(failure)),
      [],
    );
    return seen;
  };

  before(async () => {
    cluster = await OwnCluster.start();
    fake = await FakeOpenAi.start();
    fake.defaultReply = { content: 'answer after a pause', delayMs: 1_500 };
    receiver = await WebhookReceiver.start();
    stack = await Stack.start({
      env: {
        ...cluster.env,
        OPENAI_API_KEY: 'sk-test-fake',
        OPENAI_BASE_URL: fake.baseUrl,
        WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback',
        VIDEO_PROVIDER: 'local',
        LOCAL_RENDER_SECONDS: '2',
      },
    });
    http = new Http(stack.url);
    tenant = await createTenant(http);
    slowVersionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/gpt-4o-mini' });
    await grantTokens(http, tenant.orgId, 20 * VIDEO_TOKENS);
    const endpoint = await http.post('/api/v1/webhook-endpoints', {
      token: tenant.key,
      body: { org_id: tenant.orgId, url: `${receiver.baseUrl}/failover` },
    });
    assert.equal(endpoint.status, 201, endpoint.text);
  });

  after(async () => {
    await stack?.stop();
    await fake?.stop();
    await receiver?.stop();
    await cluster?.stop();
  });

  it('one API replica SIGKILLed during a burst of runs: clients retry to the other; 0 lost, 0 doubled', async () => {
    const replicaPids = [...stack.api.log().matchAll(/pylon api replica \d+ started \(pid (\d+)\)/g)].map((match) => Number(match[1]));
    assert.equal(replicaPids.length, 2, stack.api.log());
    const burst = burstOfRuns(60, 40, 'replica killed');
    await pause(800); // the fault's place in the burst (a third of its 2.4 s), not a wait for a condition
    process.kill(replicaPids[0]!, 'SIGKILL');
    const outcomes = await burst;
    const failures = assertFailuresDocumented(outcomes);
    await assertRunsSucceededOnce(outcomes);
    assert.match(stack.api.log(), new RegExp(`pid ${replicaPids[0]}\\) exited \\(SIGKILL\\); starting another`));
    console.log(
      `# replica killed: 60 runs created, ${failures.length} failed attempts retried (${[...new Set(failures)].join(', ') || 'none'}), 0 lost, 0 doubled`,
    );
  });

  it('one worker SIGKILLed during runs, ingestions, videos and deliveries: the other finishes them; 0 lost, 0 doubled', async () => {
    const since = new Date();
    const work = Promise.all([
      burstOfRuns(30, 60, 'worker killed'),
      Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          createDurably('/api/v1/knowledge/documents', {
            org_id: tenant.orgId,
            title: `Failover ${i}`,
            content: `Document ${i} survives a worker crash. `.repeat(60),
          }),
        ),
      ),
      Promise.all(
        Array.from({ length: 2 }, (_, i) => createDurably('/v1/video-gen/generations', { user_prompt: `a kite over the hills, take ${i}` })),
      ),
    ]);
    await pause(1_200); // the fault's place in the load (runs are created for 1.8 s), not a wait for a condition
    await stack.worker.members[0]!.kill();
    const [runs, documents, videos] = await work;
    assertFailuresDocumented([...runs, ...documents, ...videos]);
    await assertRunsSucceededOnce(runs);

    const docIds = documents.map((outcome) => outcome.body.doc_id as string);
    await waitUntil('the documents ingested', async () => {
      const [row] = await query<{ open: number }>(
        `SELECT count(*)::int AS open FROM knowledge_documents WHERE id = ANY($1) AND status = 'processing'`,
        [docIds],
      );
      return row!.open === 0;
    });
    const chunks = await query<{ id: string; status: string; chunk_count: number; rows: number }>(
      `SELECT d.id, d.status, d.chunk_count, (SELECT count(*)::int FROM knowledge_chunks c WHERE c.doc_id = d.id) AS rows
         FROM knowledge_documents d WHERE d.id = ANY($1)`,
      [docIds],
    );
    assert.equal(chunks.length, docIds.length);
    for (const document of chunks) {
      assert.equal(document.status, 'ready', JSON.stringify(document));
      assert.equal(document.rows, document.chunk_count, `document ${document.id}: each chunk once`);
    }

    const videoIds = videos.map((outcome) => outcome.body.id as string);
    await waitUntil('the videos rendered', async () => {
      const [row] = await query<{ open: number }>(
        `SELECT count(*)::int AS open FROM video_generations WHERE id = ANY($1) AND state NOT IN ('completed', 'failed')`,
        [videoIds],
      );
      return row!.open === 0;
    });
    const rendered = await query<{ state: string }>('SELECT state FROM video_generations WHERE id = ANY($1)', [videoIds]);
    assert.deepEqual(
      rendered.map((video) => video.state),
      ['completed', 'completed'],
    );
    const debits = await query<{ reference_id: string; n: number }>(
      `SELECT reference_id, count(*)::int AS n FROM token_entries WHERE org_id = $1 AND kind = 'debit' AND reference_id = ANY($2) GROUP BY reference_id`,
      [tenant.orgId, videoIds],
    );
    assert.deepEqual(debits.map((debit) => debit.n).sort(), [1, 1], 'each video charged once');

    // Every event of this work is delivered to the receiver, as one message (one webhook-id) each.
    const eventIds = (await query<{ id: string }>(`SELECT id FROM events WHERE org_id = $1 AND created_at >= $2`, [tenant.orgId, since])).map(
      (event) => event.id,
    );
    assert.equal(eventIds.length, runs.length + documents.length + videos.length, 'one event per finished run, document and video');
    await waitUntil('the deliveries', async () => {
      const [row] = await query<{ delivered: number }>(
        `SELECT count(*)::int AS delivered FROM webhook_deliveries WHERE event_id = ANY($1) AND status = 'delivered'`,
        [eventIds],
      );
      return row!.delivered === eventIds.length;
    });
    const received = receiver.at('/failover').filter((webhook) => eventIds.includes(webhook.json?.id));
    const messages = new Set(received.map((webhook) => String(webhook.headers['webhook-id'])));
    assert.equal(messages.size, eventIds.length, 'each event arrived under one webhook-id');
    console.log(
      `# worker killed: ${runs.length} runs, ${documents.length} documents, ${videos.length} videos and ${eventIds.length} deliveries finished on the other worker; ` +
        `${received.length - messages.size} deliveries repeated under the same webhook-id (at least once, deduplicated by the receiver), 0 lost, 0 doubled`,
    );
    await stack.startWorker();
  });

  /** 40 runs created while a server restarts (from 0.8 s into the burst): every one once, every failure on the way documented. */
  const burstThroughRestart = async (label: string, restart: () => Promise<void>) => {
    const burst = burstOfRuns(40, 75, label);
    await pause(800); // the fault's place in the burst (a quarter of its 3 s), not a wait for a condition
    const stoppedAt = Date.now();
    await restart();
    const downMs = Date.now() - stoppedAt;
    const outcomes = await burst;
    const failures = assertFailuresDocumented(outcomes);
    await assertRunsSucceededOnce(outcomes);
    console.log(
      `# ${label} (${downMs} ms): 40 runs created, ${failures.length} failed attempts retried (${[...new Set(failures)].join(', ') || 'none'}), 0 lost, 0 doubled`,
    );
  };

  it('the Temporal server restarted during a burst of runs: creates in between are retried, running work resumes; 0 lost, 0 doubled', () =>
    burstThroughRestart('Temporal restarted', () => cluster.temporal.restart()));

  it('runs waiting on tool outputs through a Temporal restart: the outputs sent afterwards finish each once', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'local/extractive',
      tools: [{ type: 'function', name: 'lookup_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } }],
    });
    const outcomes = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        createDurably('/api/v1/agent-runs', { org_id: tenant.orgId, agent_version_id: versionId, input: `lookup_order ${i}` }),
      ),
    );
    const runIds = outcomes.map((outcome) => outcome.body.run_id as string);
    const callIds: string[] = [];
    for (const runId of runIds) {
      let action = await http.get(`/api/v1/agent-runs/${runId}/required-action`, { token: tenant.key });
      await waitUntil(`run ${runId} waiting`, async () => {
        action = await http.get(`/api/v1/agent-runs/${runId}/required-action`, { token: tenant.key });
        return action.status === 200;
      });
      callIds.push(action.body.tool_calls[0].id);
    }
    await cluster.temporal.restart();
    // The same answer again is safe (it answers the same), so a client retries it after a 5xx as it retries a create.
    const answers = await Promise.all(
      runIds.map((runId, i) =>
        createDurably(`/api/v1/agent-runs/${runId}/tool-outputs`, { tool_outputs: [{ tool_call_id: callIds[i], output: `order ${i} shipped` }] }),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => answer.status),
      runIds.map(() => 200),
    );
    await waitUntil('the answered runs finishing', async () => {
      const [row] = await query<{ open: number }>(
        `SELECT count(*)::int AS open FROM agent_runs WHERE id = ANY($1) AND status NOT IN ('succeeded', 'failed')`,
        [runIds],
      );
      return row!.open === 0;
    });
    const rows = await query<{ id: string; status: string; output: string }>('SELECT id, status, output FROM agent_runs WHERE id = ANY($1)', [
      runIds,
    ]);
    for (const [i, runId] of runIds.entries()) {
      const row = rows.find((candidate) => candidate.id === runId)!;
      assert.equal(row.status, 'succeeded', runId);
      assert.match(row.output, new RegExp(`lookup_order returned: order ${i} shipped`));
    }
    const answered = await query<{ n: number }>(`SELECT count(*)::int AS n FROM run_actions WHERE run_id = ANY($1) AND status = 'answered'`, [
      runIds,
    ]);
    assert.equal(answered[0]!.n, 10, 'one answered action per run');
  });

  it('a schedule firing every 2 s through a Temporal restart: the firings it missed are taken when it is back; every nominal time one run, none doubled', async () => {
    const created = await createDurably('/api/v1/agent-schedules', {
      org_id: tenant.orgId,
      agent_version_id: tenant.versionId,
      input: 'on schedule',
      every_seconds: 2,
      overlap: 'allow_all',
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const scheduleId = created.body.schedule_id as string;
    const runsOf = () =>
      query<{ id: string; scheduled_at: Date; status: string }>(
        'SELECT id, scheduled_at, status FROM agent_runs WHERE schedule_id = $1 ORDER BY scheduled_at',
        [scheduleId],
      );
    await waitUntil('two firings', async () => (await runsOf()).length >= 2);
    const down = Date.now();
    await cluster.temporal.restart();
    const back = Date.now();
    await waitUntil('firings after the restart', async () => (await runsOf()).some((run) => run.scheduled_at.getTime() > back + 4_000));
    // Retried after a 5xx as a client would, while Temporal settles after its restart.
    const paused = await until(
      'the pause answered without a 5xx',
      async () => {
        const response = await http.patch(`/api/v1/agent-schedules/${scheduleId}`, { token: tenant.key, body: { paused: true } });
        return response.status < 500 && response;
      },
      { timeoutMs: 10_000, intervalMs: 500 },
    );
    assert.equal(paused.status, 200, paused.text);
    const pausedAt = Date.now();
    // An absence: the firings already started when the pause was taken land meanwhile, and none of a nominal time
    // past the next one starts (the schedule may take the pause just after that one's timer fired).
    await holdsFor(
      'no firing after the pause',
      3_000,
      async () => (await runsOf()).every((run) => run.scheduled_at.getTime() <= pausedAt + 2_000),
      500,
    );
    await waitUntil('the scheduled runs finishing', async () =>
      (await runsOf()).every((run) => run.status === 'succeeded' || run.status === 'failed'),
    );
    const runs = await runsOf();
    const times = runs.map((run) => run.scheduled_at.getTime());
    assert.equal(new Set(times).size, times.length, 'doubled: a nominal time with two runs');
    for (let i = 1; i < times.length; i++) {
      assert.equal(
        times[i]! - times[i - 1]!,
        2_000,
        `lost: no run between ${runs[i - 1]!.scheduled_at.toISOString()} and ${runs[i]!.scheduled_at.toISOString()}`,
      );
    }
    assert.ok(times[0]! < down && times[times.length - 1]! > back, 'the runs span the restart');
    assert.deepEqual(
      runs.filter((run) => run.status !== 'succeeded'),
      [],
    );
    console.log(`# Temporal restarted (${back - down} ms): ${runs.length} firings, each nominal time with exactly one run`);
    await http.delete(`/api/v1/agent-schedules/${scheduleId}`, { token: tenant.key });
  });

  it("Pylon's PostgreSQL restarted during a burst of runs: requests in flight fail with documented 5xx, none hang, everything resumes; 0 lost, 0 doubled", () =>
    burstThroughRestart('PostgreSQL restarted', () => cluster.pylonPostgres.restart()));
});
