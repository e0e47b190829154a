import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { EventSource } from 'eventsource';
import { runEventsRetentionScheduleId } from '@pylon/contracts';
import { sql } from '../support/db';
import { parsePrometheusText } from '../support/prometheus';
import { testInfra } from '../support/infra';
import { FakeOpenAi } from '../support/fake-openai';
import { Http } from '../support/http';
import { Stack } from '../support/stack';
import { createTenant, createVersion, ingestDocument, waitForRun, type Tenant } from '../support/tenant';
import { until } from '../support/wait';

const EVENT_TYPES = ['queued', 'running', 'output_delta', 'tool_call', 'tool_result', 'succeeded', 'failed'];

interface Received {
  seq: number;
  type: string;
  data: any;
  /** When this client got it. */
  at: number;
}

/**
 * A run's event stream read with `eventsource`, the npm EventSource client: every named event, until the
 * terminal one (then the client is closed, as a browser's would be by the page) or until `stopAfter`.
 */
function readStream(url: string, token: string, options: { lastEventId?: string; stopAfter?: (received: Received[]) => boolean } = {}) {
  const received: Received[] = [];
  const source = new EventSource(url, {
    fetch: (input, init) =>
      fetch(input, {
        ...init,
        headers: { ...init.headers, authorization: `Bearer ${token}`, ...(options.lastEventId ? { 'last-event-id': options.lastEventId } : {}) },
      }),
  });
  const finished = new Promise<Received[]>((resolve, reject) => {
    const timer = setTimeout(() => {
      source.close();
      reject(new Error(`no terminal event within 30 s; got ${JSON.stringify(received.map((event) => event.type))}`));
    }, 30_000);
    const stop = () => {
      clearTimeout(timer);
      source.close();
      resolve(received);
    };
    for (const type of EVENT_TYPES) {
      source.addEventListener(type, (event) => {
        received.push({ seq: Number(event.lastEventId), type: event.type, data: JSON.parse(event.data), at: Date.now() });
        if (type === 'succeeded' || type === 'failed' || options.stopAfter?.(received)) stop();
      });
    }
    source.addEventListener('error', (event) => {
      if ((event as { code?: number }).code) {
        clearTimeout(timer);
        source.close();
        reject(new Error(`stream refused: ${(event as { code?: number }).code} ${(event as { message?: string }).message}`));
      }
    });
  });
  return finished;
}

describe('run events: stored, streamed live, resumable', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;
  let fake: FakeOpenAi;
  let slowVersion: string;

  before(async () => {
    fake = await FakeOpenAi.start();
    stack = await Stack.start({ env: { OPENAI_API_KEY: 'sk-test-fake', OPENAI_BASE_URL: fake.baseUrl } });
    http = new Http(stack.url);
    tenant = await createTenant(http);
    slowVersion = await createVersion(http, tenant.key, tenant.agentId, { model: 'openai/streaming' });
  });
  after(async () => {
    await stack?.stop();
    await fake?.stop();
  });

  const eventsUrl = (runId: string) => `${stack.url}/api/v1/agent-runs/${runId}/events`;
  const storedEvents = async (runId: string) => {
    const page = await http.get(`/api/v1/agent-runs/${runId}/events?limit=1000`, { token: tenant.key });
    assert.equal(page.status, 200, page.text);
    return page.body as { data: Array<{ seq: number; type: string; data: any; created_at: string }>; next_cursor: string | null };
  };
  const startRun = async (versionId: string, input = 'Tell me about Pylon.') => {
    const created = await http.post('/api/v1/agent-runs', { token: tenant.key, body: { org_id: tenant.orgId, agent_version_id: versionId, input } });
    assert.equal(created.status, 200, created.text);
    return created.body.run_id as string;
  };

  it('a live stream goes from queued to the terminal event, which carries the run exactly as GET returns it', async () => {
    const answer = 'Pylon runs agents. It searches knowledge. It renders videos.';
    fake.enqueue({ content: answer, delayMs: 500, chunkDelayMs: 40 });
    const runId = await startRun(slowVersion);
    const received = await readStream(eventsUrl(runId), tenant.key);

    assert.deepEqual(
      received.map((event) => event.seq),
      received.map((_, index) => index + 1),
      'every event once, in order, from 1',
    );
    assert.deepEqual(
      received.slice(0, 2).map((event) => [event.type, event.data]),
      [
        ['queued', { status: 'queued' }],
        ['running', { status: 'running' }],
      ],
    );
    const deltas = received.filter((event) => event.type === 'output_delta');
    assert.ok(deltas.length >= 1);
    assert.equal(deltas.map((event) => event.data.text).join(''), answer, 'the deltas add up to the output');
    const terminal = received.at(-1)!;
    assert.equal(terminal.type, 'succeeded');
    const run = await http.get(`/api/v1/agent-runs/${runId}`, { token: tenant.key });
    assert.deepEqual(terminal.data, run.body);
    assert.equal(run.body.output, answer);
    assert.ok(received[1]!.at < Date.parse(run.body.updated_at), 'live: `running` arrived before the run finished');

    const stored = await storedEvents(runId);
    assert.deepEqual(
      stored.data.map((event) => [event.seq, event.type, event.data]),
      received.map((event) => [event.seq, event.type, event.data]),
    );
    assert.equal(stored.next_cursor, null);
  });

  it('a stream dropped mid-run and resumed with Last-Event-ID continues right after it: no gap, no repeat', async () => {
    const answer = Array.from({ length: 40 }, (_, index) => `Word${index}`).join(' ');
    fake.enqueue({ content: answer, chunkDelayMs: 60 });
    const runId = await startRun(slowVersion);
    const first = await readStream(eventsUrl(runId), tenant.key, { stopAfter: (events) => events.some((event) => event.type === 'output_delta') });
    assert.notEqual(first.at(-1)!.type, 'succeeded', 'dropped before the end');
    const second = await readStream(eventsUrl(runId), tenant.key, { lastEventId: String(first.at(-1)!.seq) });

    const joined = [...first, ...second];
    assert.deepEqual(
      joined.map((event) => event.seq),
      joined.map((_, index) => index + 1),
    );
    assert.equal(joined.at(-1)!.type, 'succeeded');
    const stored = await storedEvents(runId);
    assert.deepEqual(
      joined.map((event) => [event.seq, event.type, event.data]),
      stored.data.map((event) => [event.seq, event.type, event.data]),
    );
    assert.equal(
      joined
        .filter((event) => event.type === 'output_delta')
        .map((event) => event.data.text)
        .join(''),
      answer,
    );

    // ?after= does the same as the header; a JSON page after that point is the rest of the log.
    const resumed = await readStream(`${eventsUrl(runId)}?after=${first.at(-1)!.seq}`, tenant.key);
    const withoutArrival = (events: Received[]) => events.map(({ seq, type, data }) => ({ seq, type, data }));
    assert.deepEqual(withoutArrival(resumed), withoutArrival(second));
    const page = await http.get(`/api/v1/agent-runs/${runId}/events?after=2&limit=2`, { token: tenant.key });
    assert.deepEqual(
      page.body.data.map((event: { seq: number }) => event.seq),
      [3, 4],
    );
    assert.equal(page.body.next_cursor, '4');
  });

  it('a stream opened at the latest event of a run that waits for tool outputs answers its head at once, then follows the run', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'local/extractive',
      tools: [{ type: 'function', name: 'lookup_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } }],
    });
    const runId = await startRun(versionId, 'Please lookup_order for order 42.');
    const log = await until(
      'the run waiting for its tool output',
      async () => {
        const stored = await storedEvents(runId);
        return stored.data.some((event) => event.type === 'requires_action') && stored;
      },
      { intervalMs: 50 },
    );
    const latest = log.data.at(-1)!;
    assert.equal(latest.type, 'requires_action');

    const opened = Date.now();
    const stream = await fetch(eventsUrl(runId), {
      headers: { authorization: `Bearer ${tenant.key}`, accept: 'text/event-stream', 'last-event-id': String(latest.seq) },
    });
    const headAfterMs = Date.now() - opened;
    assert.equal(stream.status, 200);
    assert.equal(stream.headers.get('content-type'), 'text/event-stream; charset=utf-8');
    assert.ok(headAfterMs < 1_000, `the head came after ${headAfterMs} ms, not at once`);

    const [call] = latest.data.tool_calls;
    const answered = await http.post(`/api/v1/agent-runs/${runId}/tool-outputs`, {
      token: tenant.key,
      body: { tool_outputs: [{ tool_call_id: call.id, output: '{"status":"shipped"}' }] },
    });
    assert.equal(answered.status, 200, answered.text);
    const body = await stream.text();
    const ids = [...body.matchAll(/^id: (\d+)$/gm)].map((match) => Number(match[1]));
    assert.deepEqual(
      ids,
      ids.map((_, index) => latest.seq + 1 + index),
      'the events after the latest one, none again',
    );
    assert.match(body, /event: succeeded\n/);
  });

  it('a stream opened after the run finished sends the whole log and closes; tool calls show their query and doc_ids', async () => {
    const doc = await ingestDocument(http, tenant, {
      title: 'Pylon facts',
      content: 'Pylon is a backend for AI products. Pylon uses Temporal for durable work.',
    });
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'local/extractive', tools: [{ type: 'knowledge_search' }] });
    const runId = await startRun(versionId, 'What does Pylon use for durable work?');
    const { run } = await waitForRun(http, tenant.key, runId);
    assert.equal(run.status, 'succeeded');

    const received = await readStream(eventsUrl(runId), tenant.key);
    assert.deepEqual(
      received.map((event) => event.type).filter((type) => type !== 'output_delta'),
      ['queued', 'running', 'tool_call', 'tool_result', 'succeeded'],
    );
    const call = received.find((event) => event.type === 'tool_call')!;
    const result = received.find((event) => event.type === 'tool_result')!;
    assert.equal(call.data.name, 'knowledge_search');
    assert.equal(result.data.call_id, call.data.call_id);
    assert.equal(result.data.query, 'What does Pylon use for durable work?');
    assert.deepEqual(result.data.doc_ids, [doc.doc_id]);
    assert.equal(
      received
        .filter((event) => event.type === 'output_delta')
        .map((event) => event.data.text)
        .join(''),
      run.output,
    );
    assert.deepEqual(received.at(-1)!.data, run);
  });

  it("another organisation's run, an unknown run and a bad Last-Event-ID are refused with the contract's errors", async () => {
    const runId = await startRun(tenant.versionId);
    await waitForRun(http, tenant.key, runId);
    const other = await createTenant(http);
    for (const accept of ['text/event-stream', 'application/json']) {
      for (const [id, key] of [
        [runId, other.key],
        ['3f0b7a52-8f7e-4a5e-9d61-2f1d6f0c9b11', tenant.key],
      ]) {
        const response = await fetch(eventsUrl(id!), { headers: { authorization: `Bearer ${key}`, accept } });
        assert.equal(response.status, 404);
        assert.deepEqual(await response.json(), { error: 'not_found' });
      }
    }
    const bad = await fetch(eventsUrl(runId), {
      headers: { authorization: `Bearer ${tenant.key}`, accept: 'text/event-stream', 'last-event-id': 'yesterday' },
    });
    assert.equal(bad.status, 400);
    assert.deepEqual(await bad.json(), { error: 'invalid_request' });
    const unauthenticated = await fetch(eventsUrl(runId), { headers: { accept: 'text/event-stream' } });
    assert.equal(unauthenticated.status, 401);
  });

  it('Accept is negotiated with q-values and case-insensitively', async () => {
    const runId = await startRun(tenant.versionId);
    await waitForRun(http, tenant.key, runId);
    const cases: Array<[accept: string | null, expected: string]> = [
      ['text/event-stream;q=0, application/json', 'application/json'],
      ['TEXT/EVENT-STREAM', 'text/event-stream'],
      ['application/json;q=0.5, text/event-stream', 'text/event-stream'],
      ['text/*', 'text/event-stream'],
      ['*/*', 'application/json'],
      [null, 'application/json'],
    ];
    for (const [accept, expected] of cases) {
      const response = await fetch(eventsUrl(runId), { headers: { authorization: `Bearer ${tenant.key}`, ...(accept ? { accept } : {}) } });
      assert.equal(response.status, 200, String(accept));
      assert.match(response.headers.get('content-type') ?? '', new RegExp(`^${expected}`), String(accept));
      await response.text();
    }
  });

  it('retention: the hourly Temporal schedule drops events older than RUN_EVENTS_RETENTION_DAYS; a stream of such a run still ends', async () => {
    const oldRun = await startRun(tenant.versionId);
    const { run } = await waitForRun(http, tenant.key, oldRun);
    const recentRun = await startRun(tenant.versionId);
    await waitForRun(http, tenant.key, recentRun);
    await sql(`UPDATE run_events SET created_at = now() - interval '8 days' WHERE run_id = $1`, [oldRun]);

    const connection = await Connection.connect({ address: testInfra().temporalAddress });
    try {
      const schedule = new Client({ connection }).schedule.getHandle(runEventsRetentionScheduleId(stack.env.TEMPORAL_TASK_QUEUE_PREFIX!));
      const description = await schedule.describe();
      assert.deepEqual(
        description.spec.intervals?.map((interval) => interval.every),
        [3_600_000],
      );
      await schedule.trigger();
      await until('the old events purged', async () => (await sql(`SELECT 1 FROM run_events WHERE run_id = $1`, [oldRun])).length === 0, {
        timeoutMs: 20_000,
        intervalMs: 200,
      });
    } finally {
      await connection.close();
    }
    assert.ok((await storedEvents(recentRun)).data.length >= 3, 'recent events are kept');
    // The finished run's stream, its log gone, still ends with the run as it is.
    const received = await readStream(eventsUrl(oldRun), tenant.key);
    assert.deepEqual(
      received.map((event) => [event.type, event.data]),
      [['succeeded', run]],
    );
  });

  it('a stream served by another API replica follows a run created on the first one, woken by PostgreSQL, not by polling', async () => {
    // A replica that would read the table only every 30 s: events arriving sooner came by NOTIFY.
    const replica = await stack.startApiReplica({ RUN_EVENTS_POLL_MS: '30000' });
    /** How often the replica has read a run's log after a stream's opening read. */
    const logReads = async () => {
      const exposition = parsePrometheusText(await (await fetch(`${replica.url}/metrics`)).text());
      return exposition.samples
        .filter(
          (sample) =>
            sample.name === 'pylon_db_statements_total' && sample.labels.statement!.startsWith('SELECT seq, type, data, created_at FROM run_events'),
        )
        .reduce((sum, sample) => sum + sample.value, 0);
    };
    const follow = async (content: string) => {
      fake.enqueue({ content, delayMs: 800, chunkDelayMs: 100 });
      const runId = await startRun(slowVersion);
      const received = await readStream(`${replica.url}/api/v1/agent-runs/${runId}/events`, tenant.key);
      assert.equal(received.at(-1)!.type, 'succeeded');
      assert.deepEqual(
        received.map((event) => event.seq),
        received.map((_, index) => index + 1),
      );
      const stored = await storedEvents(runId);
      assert.deepEqual(
        received.map((event) => [event.seq, event.type, event.data]),
        stored.data.map((event) => [event.seq, event.type, event.data]),
        'what the stream sent is the log',
      );
      return { received, stored };
    };
    try {
      // The replica's LISTEN connection opens with its first stream: events committed before it listens are read back.
      await follow('Warming up.');
      const readsBefore = await logReads();
      const { received, stored } = await follow('One sentence. Another sentence. A third one.');
      const lateness = received.slice(1).map((event, index) => event.at - Date.parse(stored.data[index + 1]!.created_at));
      assert.ok(Math.max(...lateness) < 5_000, `events reached the other replica ${JSON.stringify(lateness)} ms after they were written`);
      assert.equal(await logReads(), readsBefore, 'every event came with its announcement: the log was not read back');

      // An answer of 10 000 characters in one piece: its delta and the terminal event (the run with its output) are too large to be carried.
      await follow('x'.repeat(10_000));
      assert.ok((await logReads()) > readsBefore, 'the event too large for its announcement was read from the log');
    } finally {
      await replica.api.stop();
    }
  });
});
