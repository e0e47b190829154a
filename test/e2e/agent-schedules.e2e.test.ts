import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Client, Connection } from '@temporalio/client';
import { agentScheduleTemporalId } from '@pylon/contracts';
import { Http, type HttpResponse } from '../support/http';
import { testInfra } from '../support/infra';
import { Stack } from '../support/stack';
import { createTenant, createVersion, waitForRun, type Tenant } from '../support/tenant';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function expectError(response: HttpResponse, status: number, code: string, detail?: RegExp): void {
  assert.equal(response.status, status, response.text);
  assert.deepEqual(response.body, { error: code });
  if (detail) assert.match(response.headers.get('error-detail') ?? '', detail);
}

/** Schedules: Temporal Schedules whose firings create ordinary runs, one per nominal time. */
describe('agent schedules', () => {
  let stack: Stack;
  let http: Http;
  let tenant: Tenant;

  before(async () => {
    stack = await Stack.start();
    http = new Http(stack.url);
    tenant = await createTenant(http);
  });
  after(async () => {
    await stack?.stop();
  });

  const create = (fields: Record<string, unknown>, headers: Record<string, string> = {}) =>
    http.post('/api/v1/agent-schedules', {
      token: tenant.key,
      headers,
      body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: 'What does Pylon do?', ...fields },
    });
  const runsOf = async (scheduleId: string): Promise<any[]> => {
    const all: any[] = [];
    let cursor: string | null = null;
    do {
      const page: HttpResponse = await http.get(`/api/v1/agent-schedules/${scheduleId}/runs?limit=7${cursor ? `&cursor=${cursor}` : ''}`, {
        token: tenant.key,
      });
      assert.equal(page.status, 200, page.text);
      all.push(...page.body.data);
      cursor = page.body.next_cursor;
    } while (cursor);
    return all.sort((a, b) => Date.parse(a.scheduled_at) - Date.parse(b.scheduled_at));
  };
  const waitForRuns = async (scheduleId: string, count: number, timeoutMs = 20_000) => {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const runs = await runsOf(scheduleId);
      if (runs.length >= count) return runs;
      assert.ok(Date.now() < deadline, `only ${runs.length} of ${count} runs after ${timeoutMs} ms`);
      await sleep(200);
    }
  };

  it('an every_seconds: 2 schedule fires 5 times in 10 s (± one), each an ordinary run of its own nominal time', async () => {
    const created = await create({ every_seconds: 2, overlap: 'allow_all' });
    assert.equal(created.status, 201, created.text);
    const schedule = created.body;
    assert.match(schedule.schedule_id, /^[0-9a-f-]{36}$/);
    assert.equal(schedule.every_seconds, 2);
    assert.equal(schedule.cron, null);
    assert.equal(schedule.timezone, 'UTC');
    assert.equal(schedule.overlap, 'allow_all');
    assert.equal(schedule.paused, false);
    assert.ok(schedule.next_run_at, 'a next run');
    assert.ok(Date.parse(schedule.next_run_at) - Date.now() <= 3_000, schedule.next_run_at);
    const startedAt = Date.now();
    await sleep(10_000);
    const paused = await http.patch(`/api/v1/agent-schedules/${schedule.schedule_id}`, { token: tenant.key, body: { paused: true } });
    assert.equal(paused.status, 200, paused.text);
    const elapsed = Date.now() - startedAt;
    await sleep(1_500); // the last firing's run is written
    const runs = await runsOf(schedule.schedule_id);
    const expected = Math.floor(elapsed / 2_000);
    assert.ok(Math.abs(runs.length - expected) <= 1, `${runs.length} runs in ${elapsed} ms, expected ${expected} ± 1`);
    const times = runs.map((run) => Date.parse(run.scheduled_at));
    for (let i = 1; i < times.length; i++) assert.equal(times[i]! - times[i - 1]!, 2_000, 'consecutive nominal times, none twice');
    for (const run of runs) {
      const { run: seen } = await waitForRun(http, tenant.key, run.run_id, 30_000);
      assert.equal(seen.status, 'succeeded', seen.error);
      assert.equal(seen.input, 'What does Pylon do?');
    }
    // An ordinary run: in the organisation's run list too.
    const listed = await http.get('/api/v1/agent-runs?limit=100', { token: tenant.key });
    const listedIds = new Set(listed.body.data.map((run: { run_id: string }) => run.run_id));
    for (const run of runs) assert.ok(listedIds.has(run.run_id), `run ${run.run_id} in the run list`);
    await http.delete(`/api/v1/agent-schedules/${schedule.schedule_id}`, { token: tenant.key });
  });

  it('paused: no firings; trigger: one run at once; PATCH changes input and timing; resume fires again', async () => {
    const created = await create({ every_seconds: 1, paused: true, input: 'first input' });
    assert.equal(created.status, 201, created.text);
    const id = created.body.schedule_id;
    assert.equal(created.body.paused, true);
    assert.equal(created.body.next_run_at, null);
    assert.deepEqual(created.body.next_run_times, []);
    await sleep(3_000);
    assert.equal((await runsOf(id)).length, 0, 'no firing while paused');

    const triggered = await http.post(`/api/v1/agent-schedules/${id}/trigger`, { token: tenant.key });
    assert.equal(triggered.status, 202, triggered.text);
    const [run] = await waitForRuns(id, 1, 15_000);
    assert.equal(run.input, 'first input');
    // Three triggers at once: three firings of their own (Temporal's trigger would name them by the second and keep one).
    const together = await Promise.all([1, 2, 3].map(() => http.post(`/api/v1/agent-schedules/${id}/trigger`, { token: tenant.key })));
    for (const response of together) assert.equal(response.status, 202, response.text);
    const four = await waitForRuns(id, 4, 15_000);
    assert.equal(new Set(four.map((each) => each.run_id)).size, 4);
    await sleep(2_000); // proves an absence: nothing else fires
    assert.equal((await runsOf(id)).length, 4, 'a trigger is one run, and the schedule stays paused');

    const patched = await http.patch(`/api/v1/agent-schedules/${id}`, {
      token: tenant.key,
      body: { input: 'second input', cron: '*/5 * * * *', timezone: 'Europe/Paris' },
    });
    assert.equal(patched.status, 200, patched.text);
    assert.equal(patched.body.cron, '*/5 * * * *');
    assert.equal(patched.body.every_seconds, null);
    assert.equal(patched.body.timezone, 'Europe/Paris');
    assert.equal(patched.body.input, 'second input');
    assert.equal(patched.body.paused, true);

    const resumed = await http.patch(`/api/v1/agent-schedules/${id}`, { token: tenant.key, body: { every_seconds: 1, paused: false } });
    assert.equal(resumed.status, 200, resumed.text);
    assert.equal(resumed.body.cron, null);
    assert.equal(resumed.body.paused, false);
    assert.ok(resumed.body.next_run_times.length >= 2);
    assert.equal(Date.parse(resumed.body.next_run_times[1]) - Date.parse(resumed.body.next_run_times[0]), 1_000);
    const runs = await waitForRuns(id, 6, 15_000);
    assert.equal(runs[runs.length - 1].input, 'second input');

    const got = await http.get(`/api/v1/agent-schedules/${id}`, { token: tenant.key });
    assert.equal(got.status, 200);
    assert.equal(got.body.input, 'second input');
    const listed = await http.get('/api/v1/agent-schedules?limit=100', { token: tenant.key });
    assert.ok(listed.body.data.some((schedule: { schedule_id: string }) => schedule.schedule_id === id));

    const deleted = await http.delete(`/api/v1/agent-schedules/${id}`, { token: tenant.key });
    assert.equal(deleted.status, 204, deleted.text);
    await sleep(1_500); // a firing that had started ends with its run
    const afterDelete = (await http.get(`/api/v1/agent-runs?limit=100`, { token: tenant.key })).body.data.length;
    await sleep(3_000);
    assert.equal((await http.get(`/api/v1/agent-runs?limit=100`, { token: tenant.key })).body.data.length, afterDelete, 'no firing after delete');
    expectError(await http.get(`/api/v1/agent-schedules/${id}`, { token: tenant.key }), 404, 'not_found');
    expectError(await http.get(`/api/v1/agent-schedules/${id}/runs`, { token: tenant.key }), 404, 'not_found');
    expectError(await http.delete(`/api/v1/agent-schedules/${id}`, { token: tenant.key }), 404, 'not_found');
  });

  it('overlap "skip": while a run waits (for a tool output), its firings are skipped; once it ends, the schedule fires again', async () => {
    const versionId = await createVersion(http, tenant.key, tenant.agentId, {
      model: 'local/extractive',
      tools: [{ type: 'function', name: 'lookup_order', parameters: { type: 'object', properties: { order_id: { type: 'string' } } } }],
    });
    const created = await create({ every_seconds: 1, overlap: 'skip', agent_version_id: versionId, input: 'lookup_order for order 7' });
    assert.equal(created.status, 201, created.text);
    const id = created.body.schedule_id;
    const [first] = await waitForRuns(id, 1, 15_000);
    const deadline = Date.now() + 15_000;
    let action: HttpResponse;
    while ((action = await http.get(`/api/v1/agent-runs/${first.run_id}/required-action`, { token: tenant.key })).status !== 200) {
      assert.ok(Date.now() < deadline, 'the run never waited');
      await sleep(100);
    }
    await sleep(3_000);
    assert.equal((await runsOf(id)).length, 1, 'no firing while the run waits');
    const answered = await http.post(`/api/v1/agent-runs/${first.run_id}/tool-outputs`, {
      token: tenant.key,
      body: { tool_outputs: [{ tool_call_id: action.body.tool_calls[0].id, output: '{"order":"7"}' }] },
    });
    assert.equal(answered.status, 200, answered.text);
    assert.equal((await waitForRun(http, tenant.key, first.run_id)).run.status, 'succeeded');
    await waitForRuns(id, 2, 15_000);
    await http.delete(`/api/v1/agent-schedules/${id}`, { token: tenant.key });
  });

  it('a bad cron, an interval under 1 s, an unknown time zone: 400 naming it; unknown properties: 400', async () => {
    expectError(await create({ cron: '61 * * * *' }), 400, 'invalid_request', /minute "61"/);
    expectError(await create({ cron: 'every day' }), 400, 'invalid_request', /cron/);
    expectError(await create({ every_seconds: 0 }), 400, 'invalid_request', /every_seconds/);
    expectError(await create({ every_seconds: 0.5 }), 400, 'invalid_request', /every_seconds/);
    expectError(await create({ cron: '0 9 * * *', timezone: 'Mars/Olympus_Mons' }), 400, 'invalid_request', /timezone "Mars\/Olympus_Mons"/);
    expectError(await create({}), 400, 'invalid_request', /exactly one of cron and every_seconds/);
    expectError(await create({ cron: '0 9 * * *', every_seconds: 60 }), 400, 'invalid_request', /exactly one of cron and every_seconds/);
    expectError(await create({ every_seconds: 60, overlap: 'sometimes' }), 400, 'invalid_request', /overlap/);
    expectError(await create({ every_seconds: 60, colour: 'blue' }), 400, 'invalid_request', /colour/);
    const created = await create({ every_seconds: 3600 });
    assert.equal(created.status, 201, created.text);
    const id = created.body.schedule_id;
    const patch = (body: Record<string, unknown>) => http.patch(`/api/v1/agent-schedules/${id}`, { token: tenant.key, body });
    expectError(await patch({ cron: '* * *' }), 400, 'invalid_request', /5 fields/);
    expectError(await patch({ timezone: 'Nowhere/Special' }), 400, 'invalid_request', /timezone/);
    expectError(await patch({ every_seconds: -1 }), 400, 'invalid_request', /every_seconds/);
    expectError(await patch({ agent_version_id: tenant.versionId }), 400, 'invalid_request', /agent_version_id/);
    expectError(
      await create({ every_seconds: 60, agent_version_id: '00000000-0000-4000-8000-000000000000' }),
      400,
      'invalid_request',
      /agent_version_id/,
    );
    await http.delete(`/api/v1/agent-schedules/${id}`, { token: tenant.key });
  });

  it("another organisation's schedule is 404 everywhere; its org_id in a body is 403; Idempotency-Key makes a create safe to retry", async () => {
    const created = await create({ every_seconds: 3600 }, { 'idempotency-key': 'nightly-1' });
    assert.equal(created.status, 201, created.text);
    const id = created.body.schedule_id;
    const again = await create({ every_seconds: 3600 }, { 'idempotency-key': 'nightly-1' });
    assert.equal(again.status, 201, again.text);
    assert.equal(again.body.schedule_id, id);
    expectError(await create({ every_seconds: 60 }, { 'idempotency-key': 'nightly-1' }), 409, 'idempotency_key_reused');

    const other = await createTenant(http);
    const as = { token: other.key };
    expectError(await http.get(`/api/v1/agent-schedules/${id}`, as), 404, 'not_found');
    expectError(await http.get(`/api/v1/agent-schedules/${id}/runs`, as), 404, 'not_found');
    expectError(await http.patch(`/api/v1/agent-schedules/${id}`, { ...as, body: { paused: true } }), 404, 'not_found');
    expectError(await http.post(`/api/v1/agent-schedules/${id}/trigger`, as), 404, 'not_found');
    expectError(await http.delete(`/api/v1/agent-schedules/${id}`, as), 404, 'not_found');
    const theirs = await http.get('/api/v1/agent-schedules', as);
    assert.deepEqual(theirs.body.data, []);
    expectError(
      await http.post('/api/v1/agent-schedules', {
        ...as,
        body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: 'x', every_seconds: 60 },
      }),
      403,
      'insufficient_scope',
    );
    expectError(
      await http.post('/api/v1/agent-schedules', {
        ...as,
        body: { org_id: other.orgId, agent_version_id: tenant.versionId, input: 'x', every_seconds: 60 },
      }),
      400,
      'invalid_request',
    );
    assert.equal((await http.get(`/api/v1/agent-schedules/${id}`, { token: tenant.key })).status, 200, 'still there');
    await http.delete(`/api/v1/agent-schedules/${id}`, { token: tenant.key });
  });

  it('SIGKILL of the worker and of the API during firings: every nominal time has exactly one run', async () => {
    const created = await create({ every_seconds: 2, overlap: 'allow_all', input: 'survive' });
    assert.equal(created.status, 201, created.text);
    const id = created.body.schedule_id;
    await waitForRuns(id, 2, 15_000);
    await stack.worker.kill();
    await sleep(4_500); // firings start while no worker is there: they wait for one
    await stack.startWorker();
    await waitForRuns(id, 5, 30_000);
    await stack.api.kill();
    await sleep(3_000);
    await stack.worker.kill();
    await stack.startApi();
    await stack.startWorker();
    const paused = await http.patch(`/api/v1/agent-schedules/${id}`, { token: tenant.key, body: { paused: true } });
    assert.equal(paused.status, 200, paused.text);
    const lastNominal = Date.now();
    // Every firing the Schedule took has its run once its activity is done: one the killed worker was running is
    // retried on the new worker when that attempt times out.
    const temporal = new Client({ connection: await Connection.connect({ address: testInfra().temporalAddress }) });
    let taken: number[];
    try {
      const description = await temporal.schedule.getHandle(agentScheduleTemporalId(id)).describe();
      taken = description.info.recentActions.map((action) => action.scheduledAt.getTime());
    } finally {
      await temporal.connection.close();
    }
    assert.ok(taken.length > 0);
    // recentActions holds only the Schedule's last 10 firings: every nominal time from the first run's to the
    // last firing taken is waited for, so a firing whose activity died with a worker (retried after its 15 s
    // timeout) is waited for too, however early it was.
    const lastTaken = Math.max(...taken);
    const deadline = Date.now() + 90_000;
    for (;;) {
      const have = new Set((await runsOf(id)).map((run) => Date.parse(run.scheduled_at)));
      const missing: number[] = [];
      for (let time = Math.min(...have); time <= lastTaken; time += 2_000) if (!have.has(time)) missing.push(time);
      if (missing.length === 0) break;
      assert.ok(Date.now() < deadline, `firings without a run: ${missing.map((time) => new Date(time).toISOString()).join(', ')}`);
      await sleep(500);
    }

    const runs = await runsOf(id);
    const times = runs.map((run) => Date.parse(run.scheduled_at));
    assert.equal(new Set(times).size, times.length, 'no nominal time has two runs');
    for (let i = 1; i < times.length; i++)
      assert.equal(times[i]! - times[i - 1]!, 2_000, `no nominal time lost between ${runs[i - 1].scheduled_at} and ${runs[i].scheduled_at}`);
    assert.ok(lastNominal - times[times.length - 1]! < 4_500, `firings went on until the pause (last ${runs[runs.length - 1].scheduled_at})`);
    for (const run of runs) {
      const { run: seen } = await waitForRun(http, tenant.key, run.run_id, 60_000);
      assert.equal(seen.status, 'succeeded', seen.error);
    }
    console.log(`# ${runs.length} firings, each with exactly one run, across a worker and an API SIGKILL`);
    await http.delete(`/api/v1/agent-schedules/${id}`, { token: tenant.key });
  });
});
