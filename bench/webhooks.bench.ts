/**
 * (d) Webhooks through the real stack: E endpoints of one organisation all point at a local receiver
 * (a child process answering 200 at once); C clients each create an agent run (`local/extractive`) and
 * wait until its E signed `agent_run.succeeded` deliveries have arrived, R runs in all (E × R deliveries).
 * Measures deliveries/s at the receiver, event `created_at` → arrival, exactly-once delivery per
 * (webhook-id, endpoint) and the signatures (standardwebhooks `verify`), plus where the time goes
 * (database timestamps and Temporal's workflow start times).
 * Baseline: a bare Node loop signs (`Webhook.sign`) and POSTs the same number of messages of the same
 * size to the same receiver paths, K in flight, measuring the same figures the same way.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { createWriteStream, mkdtempSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { Pool } from 'pg';
import { Webhook } from 'standardwebhooks';
import { WORKFLOW_TYPES, pylonSearchAttributes, taskQueueName, webhookWorkflowId, webhookWorkflowSummary } from '@pylon/contracts';
import { Outbox } from '@pylon/db';
import { webhookSubscriptionFilter } from '@pylon/webhooks';
import { Http } from '../test/support/http';
import { AppProcess, Stack } from '../test/support/stack';
import { createTenant, type Tenant } from '../test/support/tenant';
import { preciseWallClock, type Arrival, type ReceiverCommand } from './webhook-receiver-server';
import {
  BENCH_LIMITS_ENV,
  envInt,
  log,
  mean,
  openLoop,
  percentile,
  round,
  runConcurrently,
  sleep,
  summarize,
  type BenchContext,
  type Benchmark,
  type BenchReport,
  type Grid,
} from './support';

/** How long a client waits for the E deliveries of its run before giving up on it. */
const RUN_DELIVERIES_TIMEOUT_MS = 60_000;
const INPUT = 'What is Pylon? Answer in one sentence.';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** The receiver child process (webhook-receiver-server.ts), driven over IPC. */
class Receiver {
  private nextId = 1;
  private readonly pending = new Map<number, (reply: any) => void>();
  onArrival: (runId: string | null) => void = () => undefined;

  private constructor(
    readonly process: AppProcess,
    readonly url: string,
  ) {}

  static async start(): Promise<Receiver> {
    const logFile = join(mkdtempSync(join(tmpdir(), 'pylon-bench-')), 'webhook-receiver.log');
    const out = createWriteStream(logFile);
    const child = fork(join(__dirname, 'webhook-receiver-server.js'), [], { stdio: ['ignore', 'pipe', 'pipe', 'ipc'] });
    child.stdout!.pipe(out, { end: false });
    child.stderr!.pipe(out, { end: false });
    child.once('exit', () => setImmediate(() => out.end()));
    const process = new AppProcess('webhook-receiver', child, logFile);
    const port = await new Promise<number>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`the webhook receiver did not start:\n${process.log()}`)), 20_000);
      child.once('exit', () => reject(new Error(`the webhook receiver exited:\n${process.log()}`)));
      child.once('message', (message: { type?: string; port?: number }) => {
        clearTimeout(timer);
        if (message.type === 'ready' && message.port) resolve(message.port);
        else reject(new Error(`unexpected first message from the webhook receiver: ${JSON.stringify(message)}`));
      });
    });
    const receiver = new Receiver(process, `http://127.0.0.1:${port}`);
    child.on('message', (message: any) => receiver.handle(message));
    return receiver;
  }

  private handle(message: any): void {
    if (message?.type === 'arrival') return this.onArrival(message.runId);
    if (typeof message?.id !== 'number') return;
    const resolve = this.pending.get(message.id);
    this.pending.delete(message.id);
    resolve?.(message);
  }

  private call(command: WithoutId<ReceiverCommand>): Promise<any> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      if (!this.process.running) return reject(new Error(`the webhook receiver is not running:\n${this.process.log()}`));
      this.pending.set(id, resolve);
      this.process.child.send({ ...command, id } as ReceiverCommand);
    });
  }

  /** Forgets every arrival; with `notify`, announces each new one (its `data.run_id`) to onArrival. */
  async reset(notify: boolean): Promise<void> {
    await this.call({ cmd: 'reset', notify });
  }

  async count(): Promise<number> {
    return ((await this.call({ cmd: 'count' })) as { count: number }).count;
  }

  /** Every arrival since the last reset or take, and forgets them. */
  async take(): Promise<Arrival[]> {
    return ((await this.call({ cmd: 'take' })) as { arrivals: Arrival[] }).arrivals;
  }

  stop(): Promise<void> {
    return this.process.stop();
  }
}

/** Counts arrivals per run and lets a client wait until its run has n of them. */
class RunArrivals {
  private readonly counts = new Map<string, number>();
  private readonly waiters = new Map<string, { need: number; done: (ok: boolean) => void }>();

  arrived(runId: string | null): void {
    if (!runId) return;
    const count = (this.counts.get(runId) ?? 0) + 1;
    this.counts.set(runId, count);
    const waiter = this.waiters.get(runId);
    if (waiter && count >= waiter.need) waiter.done(true);
  }

  count(runId: string): number {
    return this.counts.get(runId) ?? 0;
  }

  wait(runId: string, need: number, timeoutMs: number): Promise<boolean> {
    if (this.count(runId) >= need) return Promise.resolve(true);
    return new Promise((resolve) => {
      const done = (ok: boolean) => {
        clearTimeout(timer);
        this.waiters.delete(runId);
        resolve(ok);
      };
      const timer = setTimeout(() => done(false), timeoutMs);
      this.waiters.set(runId, { need, done });
    });
  }
}

interface RunOutcome {
  ok: boolean;
  runId?: string;
  /** POST → the E-th delivery of its event arrived. */
  latencyMs: number;
  postMs?: number;
  error?: string;
}

async function pylonRun(http: Http, tenant: Tenant, arrivals: RunArrivals, endpoints: number): Promise<RunOutcome> {
  const started = performance.now();
  const created = await http.post('/api/v1/agent-runs', {
    token: tenant.key,
    body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input: INPUT },
  });
  if (created.status !== 200) return { ok: false, latencyMs: performance.now() - started, error: `POST ${created.status}: ${created.text}` };
  const postMs = performance.now() - started;
  const runId = created.body.run_id as string;
  const ok = await arrivals.wait(runId, endpoints, RUN_DELIVERIES_TIMEOUT_MS);
  return {
    ok,
    runId,
    latencyMs: performance.now() - started,
    postMs,
    error: ok ? undefined : `${arrivals.count(runId)} of ${endpoints} deliveries after ${RUN_DELIVERIES_TIMEOUT_MS} ms`,
  };
}

const RECORD_EVENT = `WITH ${new Outbox(webhookSubscriptionFilter).withDeliveries(
  'VALUES ($1::uuid, $2::uuid, $3, $4::uuid, $5::jsonb, clock_timestamp())',
)} SELECT count(*)::int AS planned FROM planned`;

/**
 * An event that needs no run: recorded with its deliveries by the statement Pylon records events with
 * (Outbox.withDeliveries), then announced as the API announces the events it records (EventAnnouncer: the
 * event's `webhookWorkflow` on the webhooks task queue, which makes the first attempts). Its `data` is a real run's, with a fresh `run_id`,
 * so that the receiver tells its deliveries apart and the body is the same size.
 */
async function directEvent(
  pool: Pool,
  temporal: Client,
  taskQueuePrefix: string,
  tenant: Tenant,
  template: { type: string; data: Record<string, unknown> },
  arrivals: RunArrivals,
  endpoints: number,
): Promise<RunOutcome> {
  const started = performance.now();
  const eventId = randomUUID();
  const resourceId = randomUUID();
  try {
    await pool.query(RECORD_EVENT, [eventId, tenant.orgId, template.type, resourceId, JSON.stringify({ ...template.data, run_id: resourceId })]);
    await temporal.workflow.start(WORKFLOW_TYPES.webhook, {
      workflowId: webhookWorkflowId(eventId),
      taskQueue: taskQueueName(taskQueuePrefix, 'webhooks'),
      priority: { fairnessKey: tenant.orgId },
      args: [{ eventId, orgId: tenant.orgId }],
      typedSearchAttributes: pylonSearchAttributes(tenant.orgId, eventId),
      staticSummary: webhookWorkflowSummary(eventId),
    });
  } catch (error) {
    return { ok: false, latencyMs: performance.now() - started, error: error instanceof Error ? error.message : String(error) };
  }
  const postMs = performance.now() - started;
  const ok = await arrivals.wait(resourceId, endpoints, RUN_DELIVERIES_TIMEOUT_MS);
  return {
    ok,
    runId: resourceId,
    latencyMs: performance.now() - started,
    postMs,
    error: ok ? undefined : `${arrivals.count(resourceId)} of ${endpoints} deliveries after ${RUN_DELIVERIES_TIMEOUT_MS} ms`,
  };
}

const deliveryKey = (webhookId: string, path: string) => `${webhookId} ${path}`;

/** Exactly once, signatures, throughput and latency of one side, from the receiver's records. */
function analyse(arrivals: Arrival[], expected: Set<string>, secrets: Map<string, string>, exactCreatedMs?: Map<string, number>) {
  const perKey = new Map<string, Arrival[]>();
  let unparsable = 0;
  let idMismatches = 0;
  let unexpected = 0;
  const signatures = { checked: 0, valid: 0, validOutsideTolerance: 0, invalid: 0, firstError: undefined as string | undefined };
  const verifiers = new Map([...secrets].map(([path, secret]) => [path, new Webhook(secret)]));
  for (const arrival of arrivals) {
    const key = deliveryKey(arrival.webhookId, arrival.path);
    if (!expected.has(key)) unexpected++;
    perKey.set(key, [...(perKey.get(key) ?? []), arrival]);
    const verifier = verifiers.get(arrival.path);
    signatures.checked++;
    const headers = { 'webhook-id': arrival.webhookId, 'webhook-timestamp': arrival.webhookTimestamp, 'webhook-signature': arrival.webhookSignature };
    try {
      if (!verifier) throw new Error(`no secret for path ${arrival.path}`);
      verifier.verify(arrival.body, headers);
      signatures.valid++;
    } catch (error) {
      // verify() also refuses timestamps more than 5 minutes away from now: recheck the signature alone.
      const message = error instanceof Error ? error.message : String(error);
      const timestamp = Number(arrival.webhookTimestamp);
      const expectedSignature =
        verifier && Number.isFinite(timestamp) ? verifier.sign(arrival.webhookId, new Date(timestamp * 1000), arrival.body) : undefined;
      if (/timestamp too (old|new)/.test(message) && expectedSignature && arrival.webhookSignature.split(' ').includes(expectedSignature)) {
        signatures.validOutsideTolerance++;
      } else {
        signatures.invalid++;
        signatures.firstError ??= `${arrival.path} ${arrival.webhookId}: ${message}`;
      }
    }
  }
  const first: Array<{ key: string; path: string; webhookId: string; createdMs: number; at: number; latencyMs: number; bytes: number }> = [];
  for (const [key, list] of perKey) {
    if (!expected.has(key)) continue;
    const earliest = list.reduce((a, b) => (b.at < a.at ? b : a));
    let createdMs = NaN;
    try {
      const payload = JSON.parse(earliest.body) as { id?: string; created_at?: string };
      createdMs = exactCreatedMs?.get(key) ?? Date.parse(payload.created_at ?? '');
      if (payload.id !== earliest.webhookId) idMismatches++;
    } catch {
      unparsable++;
    }
    first.push({
      key,
      path: earliest.path,
      webhookId: earliest.webhookId,
      createdMs,
      at: earliest.at,
      latencyMs: earliest.at - createdMs,
      bytes: Buffer.byteLength(earliest.body),
    });
  }
  const duplicates = [...perKey.entries()].filter(([key, list]) => expected.has(key) && list.length > 1);
  const timed = first.filter((entry) => Number.isFinite(entry.latencyMs));
  const spanMs = timed.length ? Math.max(...timed.map((entry) => entry.at)) - Math.min(...timed.map((entry) => entry.createdMs)) : NaN;
  return {
    figures: {
      expected: expected.size,
      received: arrivals.length,
      deliveredOnce: first.length - duplicates.length,
      missing: expected.size - first.length,
      duplicated: duplicates.length,
      extraArrivals: duplicates.reduce((sum, [, list]) => sum + list.length - 1, 0) + unexpected,
      unexpected,
      unparsable,
      payloadIdDiffersFromWebhookId: idMismatches,
      signatures,
      spanSeconds: round(spanMs / 1000, 3),
      deliveriesPerSecond: round((first.length / spanMs) * 1000, 1),
      createdToArrivalMs: summarize(timed.map((entry) => entry.latencyMs)),
      bodyBytes: summarize(first.map((entry) => entry.bytes)),
      /** Little's law: mean number of deliveries between their created_at and their arrival. */
      meanDeliveriesInFlight: round(timed.reduce((sum, entry) => sum + entry.latencyMs, 0) / spanMs, 2),
    },
    first,
  };
}

/** Peak and mean number of overlapping intervals. */
function overlap(intervals: Array<{ start: number; end: number }>): { peak: number; mean: number } {
  if (intervals.length === 0) return { peak: 0, mean: NaN };
  const points = intervals.flatMap((interval) => [
    { at: interval.start, delta: 1 },
    { at: Math.max(interval.end, interval.start), delta: -1 },
  ]);
  // At equal times, ends before starts: a POST that starts as another ends does not overlap it.
  points.sort((a, b) => a.at - b.at || a.delta - b.delta);
  let current = 0;
  let peak = 0;
  for (const point of points) peak = Math.max(peak, (current += point.delta));
  const span = Math.max(...intervals.map((interval) => interval.end)) - Math.min(...intervals.map((interval) => interval.start));
  return { peak, mean: round(intervals.reduce((sum, interval) => sum + (interval.end - interval.start), 0) / span, 2) };
}

interface DeliveryRow {
  delivery_id: string;
  event_id: string;
  url: string;
  status: string;
  attempt_count: number;
  event_ms: number;
  planned_ms: number;
  attempt_ms: number | null;
  duration_ms: number | null;
  attempt_number: number | null;
  status_code: number | null;
}

/** Where Pylon's time went, per delivery (first attempt): database timestamps, Temporal start times, the receiver's arrival. */
async function pylonStages(
  pool: Pool,
  temporal: Client,
  orgId: string,
  events: Array<{ id: string }>,
  first: Array<{ path: string; webhookId: string; at: number; latencyMs: number }>,
) {
  const rows = (
    await pool.query<DeliveryRow>(
      `SELECT d.id AS delivery_id, d.event_id, e.url, d.status, d.attempt_count,
              (extract(epoch FROM ev.created_at) * 1000)::float8 AS event_ms,
              (extract(epoch FROM d.created_at) * 1000)::float8 AS planned_ms,
              (extract(epoch FROM a.started_at) * 1000)::float8 AS attempt_ms,
              a.duration_ms, a.attempt_number, a.status_code
         FROM webhook_deliveries d
         JOIN events ev ON ev.id = d.event_id
         JOIN webhook_endpoints e ON e.id = d.endpoint_id
         LEFT JOIN webhook_attempts a ON a.delivery_id = d.id
        WHERE d.org_id = $1 AND d.event_id = ANY($2::uuid[])`,
      [orgId, events.map((event) => event.id)],
    )
  ).rows;
  const attempts = rows.filter((row) => row.attempt_ms !== null);
  const firstAttempts = attempts.filter((row) => row.attempt_number === 1);
  const deliveries = new Map(rows.map((row) => [row.delivery_id, row]));
  const byStatus: Record<string, number> = {};
  for (const row of deliveries.values()) byStatus[row.status] = (byStatus[row.status] ?? 0) + 1;

  const arrivalOf = new Map(first.map((entry) => [deliveryKey(entry.webhookId, entry.path), entry]));
  const stages = {
    eventToPlanned: [] as number[],
    plannedToFirstAttempt: [] as number[],
    attemptToArrival: [] as number[],
    attemptHttpDurationRecorded: [] as number[],
    eventToArrival: [] as number[],
  };
  const perEvent = new Map<string, number[]>();
  for (const row of firstAttempts) {
    const arrival = arrivalOf.get(deliveryKey(row.event_id, new URL(row.url).pathname));
    stages.eventToPlanned.push(row.planned_ms - row.event_ms);
    stages.plannedToFirstAttempt.push(row.attempt_ms! - row.planned_ms);
    stages.attemptToArrival.push((arrival?.at ?? NaN) - row.attempt_ms!);
    stages.attemptHttpDurationRecorded.push(row.duration_ms ?? NaN);
    stages.eventToArrival.push((arrival?.at ?? NaN) - row.event_ms);
    if (arrival) perEvent.set(row.event_id, [...(perEvent.get(row.event_id) ?? []), arrival.at - row.event_ms]);
  }
  const finite = (values: number[]) => values.filter(Number.isFinite);
  const stageFigures = Object.fromEntries(Object.entries(stages).map(([name, values]) => [name, summarize(finite(values))]));

  // The k-th delivery of an event to arrive: all of an event's first attempts leave together.
  const byRank: number[][] = [];
  for (const list of perEvent.values()) {
    list.sort((a, b) => a - b);
    list.forEach((latency, rank) => (byRank[rank] ??= []).push(latency));
  }
  const posts = overlap(attempts.map((row) => ({ start: row.attempt_ms!, end: row.attempt_ms! + (row.duration_ms ?? 0) })));
  const retried = new Set([...deliveries.values()].filter((row) => row.attempt_count > 1 || row.status === 'pending').map((row) => row.event_id))
    .size;
  return {
    deliveriesInDatabase: deliveries.size,
    deliveriesByStatus: byStatus,
    attemptsInDatabase: attempts.length,
    attemptsOtherThan200: attempts.filter((row) => row.status_code !== 200).length,
    deliveriesWithMoreThanOneAttempt: [...deliveries.values()].filter((row) => row.attempt_count > 1).length,
    /** Events with deliveries that entered the durable retry schedule (of their `webhook:<event_id>` workflow); 0 when every first attempt succeeds. */
    eventsRetried: retried,
    stagesMs: stageFigures,
    byArrivalRankWithinEvent: byRank.map((latency, rank) => ({
      rank: rank + 1,
      eventToArrivalP50: round(percentile(latency, 50)),
      eventToArrivalP99: round(percentile(latency, 99)),
    })),
    /** From webhook_attempts: started_at .. started_at + duration_ms of every POST. */
    postsInFlight: posts,
  };
}

interface Template {
  path: string;
  type: string;
  data: unknown;
}

/** The bare sender: sign each message with standardwebhooks and POST it, `concurrency` at a time, over keep-alive sockets. */
async function bareSend(
  baseUrl: string,
  templates: Template[],
  count: number,
  concurrency: number,
  verifiers: Map<string, Webhook>,
  agent: Agent,
  clock: () => number,
): Promise<{ ids: string[]; paths: string[]; sentAt: number[]; wallMs: number; roundTripMs: number[]; failures: number }> {
  const ids = Array.from({ length: count }, () => randomUUID());
  const sentAt: number[] = new Array(count);
  const paths = ids.map((_, index) => templates[index % templates.length]!.path);
  const roundTripMs: number[] = new Array(count);
  let failures = 0;
  const { wallMs } = await runConcurrently(count, concurrency, async (index) => {
    const template = templates[index % templates.length]!;
    sentAt[index] = clock();
    const now = new Date(sentAt[index]!);
    const body = JSON.stringify({ id: ids[index], type: template.type, created_at: now.toISOString(), data: template.data });
    const signature = verifiers.get(template.path)!.sign(ids[index]!, now, body);
    const started = performance.now();
    const status = await new Promise<number | null>((resolve) => {
      const request = httpRequest(
        `${baseUrl}${template.path}`,
        {
          method: 'POST',
          agent,
          headers: {
            'content-type': 'application/json',
            'content-length': Buffer.byteLength(body),
            'webhook-id': ids[index],
            'webhook-timestamp': String(Math.floor(now.getTime() / 1000)),
            'webhook-signature': signature,
          },
        },
        (response) => {
          response.resume();
          response.on('end', () => resolve(response.statusCode ?? null));
          response.on('error', () => resolve(null));
        },
      );
      request.on('error', () => resolve(null));
      request.end(body);
    });
    roundTripMs[index] = performance.now() - started;
    if (status !== 200) failures++;
  });
  return { ids, paths, sentAt, wallMs, roundTripMs, failures };
}

/** Open loop: one run every 1000 / rate ms for `seconds`, each waiting for its E deliveries, whatever the others are doing. */
function pacedRuns(http: Http, tenant: Tenant, arrivals: RunArrivals, endpoints: number, rate: number, seconds: number): Promise<RunOutcome[]> {
  return openLoop(rate, seconds, () => pylonRun(http, tenant, arrivals, endpoints));
}

export const webhooksBenchmark: Benchmark = {
  name: 'webhooks',
  description:
    'E endpoints on one organisation receive the signed agent_run.succeeded of R agent runs (local/extractive) through the real API + worker + Temporal workflows, at a local receiver, vs a bare Node loop signing (standardwebhooks) and POSTing the same messages to the same receiver',
  budgetMinutes: () => 4 + (envInt('BENCH_WEBHOOK_ENDPOINTS', 5) * envInt('BENCH_WEBHOOK_RUNS', 100)) / 250,
  async run(context: BenchContext): Promise<BenchReport> {
    const endpointCount = envInt('BENCH_WEBHOOK_ENDPOINTS', 5);
    const runCount = envInt('BENCH_WEBHOOK_RUNS', 100);
    const concurrency = envInt('BENCH_WEBHOOK_CONCURRENCY', 16);
    const warmupRuns = envInt('BENCH_WEBHOOK_WARMUP_RUNS', 4);
    const baselineConcurrency = envInt('BENCH_WEBHOOK_BASELINE_CONCURRENCY', 16);
    const settleMs = envInt('BENCH_WEBHOOK_SETTLE_MS', 2_000);
    const pacedRate = envInt('BENCH_WEBHOOK_PACED_RATE', 10);
    const pacedSeconds = envInt('BENCH_WEBHOOK_PACED_SECONDS', 10);
    const wideEndpoints = envInt('BENCH_WEBHOOK_WIDE_ENDPOINTS', 20);
    const wideRuns = envInt('BENCH_WEBHOOK_WIDE_RUNS', 50);
    const directEvents = envInt('BENCH_WEBHOOK_DIRECT_EVENTS', 150);
    const deliveries = endpointCount * runCount;

    const clock = preciseWallClock();
    const receiver = await Receiver.start();
    const stackEnv = { ...BENCH_LIMITS_ENV, WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback' };
    let stack: Stack | undefined;
    const pool = new Pool({ connectionString: context.infra.databaseUrl, max: 4 });
    const connection = await Connection.connect({ address: context.infra.temporalAddress });
    const temporal = new Client({ connection });
    const agent = new Agent({ keepAlive: true, maxSockets: baselineConcurrency });
    try {
      const stackStarted = Date.now();
      stack = await Stack.start({ env: stackEnv });
      log(
        `webhooks stack (API ${stack.url}, worker on ${stack.env.TEMPORAL_TASK_QUEUE_PREFIX}) started in ${Date.now() - stackStarted} ms; receiver at ${receiver.url}`,
      );
      log(`  logs: ${stack.api.logFile}, ${stack.worker.logFile}, ${receiver.process.logFile}`);
      const http = new Http(stack.url);
      const tenant = await createTenant(http);

      const addEndpoints = async (owner: Tenant, prefix: string, count: number, into: Map<string, string>) => {
        for (let index = 0; index < count; index++) {
          const path = `${prefix}/${index + 1}`;
          const created = await http.post('/api/v1/webhook-endpoints', {
            token: owner.key,
            body: { org_id: owner.orgId, url: `${receiver.url}${path}` },
          });
          if (created.status !== 201) throw new Error(`POST /api/v1/webhook-endpoints answered ${created.status}: ${created.text}`);
          into.set(path, created.body.secret as string);
        }
      };
      const secrets = new Map<string, string>();
      await addEndpoints(tenant, '/hooks', endpointCount, secrets);

      // ── Pylon
      const arrivals = new RunArrivals();
      receiver.onArrival = (runId) => arrivals.arrived(runId);
      await receiver.reset(true);
      log(
        `pylon: ${endpointCount} endpoints; ${warmupRuns} warm-up runs, then ${runCount} runs (${deliveries} deliveries), ${concurrency} runs in flight`,
      );
      const warmup = await runConcurrently(warmupRuns, concurrency, () => pylonRun(http, tenant, arrivals, endpointCount));
      if (warmup.results.some((outcome) => !outcome.ok)) log(`pylon: a warm-up run failed: ${warmup.results.find((outcome) => !outcome.ok)?.error}`);
      await sleep(500);
      await receiver.reset(true);
      const measured = await runConcurrently(runCount, concurrency, () => pylonRun(http, tenant, arrivals, endpointCount));
      const failedRuns = measured.results.filter((outcome) => !outcome.ok);
      if (failedRuns.length) log(`pylon: ${failedRuns.length} runs without all their deliveries, e.g. ${failedRuns[0]!.error}`);
      log(`pylon: ${runCount} runs in ${(measured.wallMs / 1000).toFixed(1)} s; waiting ${settleMs} ms for late or repeated deliveries`);
      await sleep(settleMs);
      receiver.onArrival = () => undefined;
      const pylonArrivals = await receiver.take();

      const runIds = measured.results.flatMap((outcome) => (outcome.runId ? [outcome.runId] : []));
      const events = (
        await pool.query<{ id: string; type: string; resource_id: string }>(
          `SELECT id, type, resource_id FROM events WHERE org_id = $1 AND resource_id = ANY($2::uuid[])`,
          [tenant.orgId, runIds],
        )
      ).rows;
      const paths = [...secrets.keys()];
      const pylonExpected = new Set(events.flatMap((event) => paths.map((path) => deliveryKey(event.id, path))));
      const pylonSide = analyse(pylonArrivals, pylonExpected, secrets);
      const stages = await pylonStages(pool, temporal, tenant.orgId, events, pylonSide.first);

      // ── Pylon at a steady pace (open loop): the latency a user sees when the service is not saturated.
      log(`pylon: ${pacedRate} runs/s for ${pacedSeconds} s (${pacedRate * pacedSeconds * endpointCount} deliveries), open loop`);
      receiver.onArrival = (runId) => arrivals.arrived(runId);
      await receiver.reset(true);
      const paced = await pacedRuns(http, tenant, arrivals, endpointCount, pacedRate, pacedSeconds);
      await sleep(settleMs);
      receiver.onArrival = () => undefined;
      const pacedArrivals = await receiver.take();
      const pacedRunIds = paced.flatMap((outcome) => (outcome.runId ? [outcome.runId] : []));
      const pacedEvents = (
        await pool.query<{ id: string }>(`SELECT id FROM events WHERE org_id = $1 AND resource_id = ANY($2::uuid[])`, [tenant.orgId, pacedRunIds])
      ).rows;
      const pacedSide = analyse(pacedArrivals, new Set(pacedEvents.flatMap((event) => paths.map((path) => deliveryKey(event.id, path)))), secrets);
      const q = pacedSide.figures;

      // ── Pylon with wide events: another organisation with W endpoints, closed loop: the delivery path's throughput.
      const wideTenant = await createTenant(http);
      const wideSecrets = new Map<string, string>();
      await addEndpoints(wideTenant, '/wide', wideEndpoints, wideSecrets);
      log(
        `pylon: ${wideRuns} runs of an organisation with ${wideEndpoints} endpoints (${wideRuns * wideEndpoints} deliveries), ${concurrency} in flight`,
      );
      receiver.onArrival = (runId) => arrivals.arrived(runId);
      await receiver.reset(true);
      const wide = await runConcurrently(wideRuns, concurrency, () => pylonRun(http, wideTenant, arrivals, wideEndpoints));
      await sleep(settleMs);
      receiver.onArrival = () => undefined;
      const wideArrivals = await receiver.take();
      const wideRunIds = wide.results.flatMap((outcome) => (outcome.runId ? [outcome.runId] : []));
      const wideEvents = (
        await pool.query<{ id: string }>(`SELECT id FROM events WHERE org_id = $1 AND resource_id = ANY($2::uuid[])`, [wideTenant.orgId, wideRunIds])
      ).rows;
      const widePaths = [...wideSecrets.keys()];
      const w = analyse(
        wideArrivals,
        new Set(wideEvents.flatMap((event) => widePaths.map((path) => deliveryKey(event.id, path)))),
        wideSecrets,
      ).figures;

      // ── Pylon with wide events that need no run (the same organisation): what the delivery path sustains
      // when the event source is cheap; each event recorded and announced as the API does it.
      const wideTemplateArrival = wideArrivals[0];
      if (!wideTemplateArrival) throw new Error('no wide delivery arrived: nothing to model the direct events on');
      const wideTemplate = JSON.parse(wideTemplateArrival.body) as { type: string; data: Record<string, unknown> };
      const taskQueuePrefix = stack.env.TEMPORAL_TASK_QUEUE_PREFIX!;
      log(
        `pylon: ${directEvents} events recorded and announced directly (no run) to ${wideEndpoints} endpoints (${directEvents * wideEndpoints} deliveries), ${concurrency} in flight`,
      );
      receiver.onArrival = (runId) => arrivals.arrived(runId);
      await receiver.reset(true);
      const direct = await runConcurrently(directEvents, concurrency, () =>
        directEvent(pool, temporal, taskQueuePrefix, wideTenant, wideTemplate, arrivals, wideEndpoints),
      );
      await sleep(settleMs);
      receiver.onArrival = () => undefined;
      const directArrivals = await receiver.take();
      const directResourceIds = direct.results.flatMap((outcome) => (outcome.runId ? [outcome.runId] : []));
      const directEventRows = (
        await pool.query<{ id: string }>(`SELECT id FROM events WHERE org_id = $1 AND resource_id = ANY($2::uuid[])`, [
          wideTenant.orgId,
          directResourceIds,
        ])
      ).rows;
      const d = analyse(
        directArrivals,
        new Set(directEventRows.flatMap((event) => widePaths.map((path) => deliveryKey(event.id, path)))),
        wideSecrets,
      ).figures;
      const directFailures = direct.results.filter((outcome) => !outcome.ok);
      if (directFailures.length) log(`pylon: ${directFailures.length} direct events without all their deliveries, e.g. ${directFailures[0]!.error}`);

      // ── Baseline: the same messages (type, data, paths, sizes), signed and sent by a bare loop.
      const templates: Template[] = [...pylonSide.first]
        .sort((a, b) => a.at - b.at)
        .map((entry) => {
          const arrival = pylonArrivals.find((candidate) => candidate.webhookId === entry.webhookId && candidate.path === entry.path)!;
          const payload = JSON.parse(arrival.body) as { type: string; data: unknown };
          return { path: entry.path, type: payload.type, data: payload.data };
        });
      if (templates.length === 0) throw new Error('no Pylon delivery arrived: nothing to model the baseline messages on');
      const verifiers = new Map([...secrets].map(([path, secret]) => [path, new Webhook(secret)]));
      await receiver.reset(false);
      log(`baseline: ${baselineConcurrency * 2} warm-up POSTs, then ${deliveries} signed POSTs, ${baselineConcurrency} in flight`);
      await bareSend(receiver.url, templates, baselineConcurrency * 2, baselineConcurrency, verifiers, agent, clock);
      await sleep(200);
      await receiver.reset(false);
      const sent = await bareSend(receiver.url, templates, deliveries, baselineConcurrency, verifiers, agent, clock);
      await sleep(Math.min(settleMs, 500));
      const baselineArrivals = await receiver.take();
      const baselineExpected = new Set(sent.ids.map((id, index) => deliveryKey(id, sent.paths[index]!)));
      const sentAt = new Map(sent.ids.map((id, index) => [deliveryKey(id, sent.paths[index]!), sent.sentAt[index]!]));
      const baselineSide = analyse(baselineArrivals, baselineExpected, secrets, sentAt);

      const p = pylonSide.figures;
      const b = baselineSide.figures;
      const ok = measured.results.filter((outcome) => outcome.ok);
      const stageNames: Array<[keyof typeof stages.stagesMs, string]> = [
        ['eventToPlanned', 'event recorded → delivery rows planned (same transaction)'],
        ['plannedToFirstAttempt', 'planned → first attempt started'],
        ['attemptToArrival', 'attempt started → arrival at receiver'],
        ['eventToArrival', 'event recorded → arrival (total)'],
        ['attemptHttpDurationRecorded', 'attempt duration_ms (recorded POST)'],
      ];
      const stageGrid: Grid = {
        title: 'pylon: where the time goes, per delivery (first attempt; ms)',
        header: ['stage', 'p50', 'p90', 'p99', 'mean'],
        rows: stageNames.map(([key, label]) => {
          const figures = stages.stagesMs[key] as ReturnType<typeof summarize>;
          return [label, figures.p50, figures.p90, figures.p99, figures.mean];
        }),
      };
      const rankGrid: Grid = {
        title: 'pylon: the k-th delivery of an event to arrive (ms)',
        header: ['k', 'event → arrival p50', 'p99'],
        rows: stages.byArrivalRankWithinEvent.map((entry) => [entry.rank, entry.eventToArrivalP50, entry.eventToArrivalP99]),
      };
      const failures = (side: typeof p) =>
        side.missing + side.duplicated + side.unexpected + side.signatures.invalid + side.payloadIdDiffersFromWebhookId + side.unparsable;
      if (failures(p))
        log(
          `pylon: ${p.missing} missing, ${p.duplicated} duplicated, ${p.unexpected} unexpected, ${p.signatures.invalid} bad signatures (${p.signatures.firstError ?? '-'})`,
        );
      if (failures(b) || sent.failures)
        log(`baseline: ${b.missing} missing, ${b.duplicated} duplicated, ${b.signatures.invalid} bad signatures, ${sent.failures} non-200`);

      return {
        parameters: {
          endpoints: endpointCount,
          runs: runCount,
          deliveries,
          runsInFlight: concurrency,
          warmupRuns,
          baselineConcurrency,
          settleMs,
          model: 'local/extractive',
          receiver: 'node:http in a child process on 127.0.0.1, 200 at once; arrival = body read',
          stackEnv,
          runDeliveriesTimeoutMs: RUN_DELIVERIES_TIMEOUT_MS,
          pacedRunsPerSecond: pacedRate,
          pacedSeconds,
          wideEndpoints,
          wideRuns,
          directEvents,
          signaturesVerified: 'all (standardwebhooks Webhook.verify)',
        },
        rows: [
          { metric: 'deliveries/s', pylon: p.deliveriesPerSecond, baseline: b.deliveriesPerSecond, digits: 1 },
          // The same figure inverted, so that its ratio stays readable when the gap is large.
          {
            metric: 'ms per delivery (1 / deliveries/s)',
            pylon: round(1000 / p.deliveriesPerSecond, 3),
            baseline: round(1000 / b.deliveriesPerSecond, 3),
            digits: 3,
          },
          { metric: 'created_at → arrival p50 (ms)', pylon: p.createdToArrivalMs.p50, baseline: b.createdToArrivalMs.p50 },
          { metric: 'created_at → arrival p90 (ms)', pylon: p.createdToArrivalMs.p90, baseline: b.createdToArrivalMs.p90 },
          { metric: 'created_at → arrival p99 (ms)', pylon: p.createdToArrivalMs.p99, baseline: b.createdToArrivalMs.p99 },
          { metric: 'created_at → arrival mean (ms)', pylon: p.createdToArrivalMs.mean, baseline: b.createdToArrivalMs.mean },
          { metric: 'deliveries in flight (mean)', pylon: p.meanDeliveriesInFlight, baseline: b.meanDeliveriesInFlight },
          { metric: `paced ${pacedRate} runs/s: created_at → arrival p50 (ms)`, pylon: q.createdToArrivalMs.p50, baseline: b.createdToArrivalMs.p50 },
          { metric: `paced ${pacedRate} runs/s: created_at → arrival p99 (ms)`, pylon: q.createdToArrivalMs.p99, baseline: b.createdToArrivalMs.p99 },
          { metric: `${wideEndpoints} endpoints per event: deliveries/s`, pylon: w.deliveriesPerSecond, baseline: b.deliveriesPerSecond, digits: 1 },
          {
            metric: `${wideEndpoints} endpoints per event: created_at → arrival p99 (ms)`,
            pylon: w.createdToArrivalMs.p99,
            baseline: b.createdToArrivalMs.p99,
          },
          {
            metric: `${wideEndpoints} endpoints per event, events without runs: deliveries/s`,
            pylon: d.deliveriesPerSecond,
            baseline: b.deliveriesPerSecond,
            digits: 1,
          },
          {
            metric: `${wideEndpoints} endpoints per event, events without runs: created_at → arrival p99 (ms)`,
            pylon: d.createdToArrivalMs.p99,
            baseline: b.createdToArrivalMs.p99,
          },
          { metric: 'missing deliveries', pylon: p.missing + q.missing + w.missing + d.missing, baseline: b.missing, digits: 0 },
          { metric: 'duplicated deliveries', pylon: p.duplicated + q.duplicated + w.duplicated + d.duplicated, baseline: b.duplicated, digits: 0 },
          {
            metric: 'bad signatures',
            pylon: p.signatures.invalid + q.signatures.invalid + w.signatures.invalid + d.signatures.invalid,
            baseline: b.signatures.invalid,
            digits: 0,
          },
        ],
        tables: [stageGrid, rankGrid],
        pylon: {
          ...p,
          runs: {
            count: runCount,
            withAllDeliveries: ok.length,
            firstErrors: [...new Set(failedRuns.map((outcome) => outcome.error))].slice(0, 5),
            wallSeconds: round(measured.wallMs / 1000, 2),
            runsPerSecond: round((runCount / measured.wallMs) * 1000, 2),
            postToAllDeliveredMs: summarize(ok.map((outcome) => outcome.latencyMs)),
            postMs: summarize(ok.map((outcome) => outcome.postMs ?? NaN).filter(Number.isFinite)),
          },
          wide: { endpoints: wideEndpoints, runs: wideRuns, runsWithAllDeliveries: wide.results.filter((outcome) => outcome.ok).length, ...w },
          direct: {
            endpoints: wideEndpoints,
            events: directEvents,
            eventsWithAllDeliveries: direct.results.filter((outcome) => outcome.ok).length,
            firstErrors: [...new Set(directFailures.map((outcome) => outcome.error))].slice(0, 5),
            wallSeconds: round(direct.wallMs / 1000, 2),
            eventsPerSecond: round((directEvents / direct.wallMs) * 1000, 2),
            ...d,
          },
          paced: { runsPerSecond: pacedRate, seconds: pacedSeconds, runsWithAllDeliveries: paced.filter((outcome) => outcome.ok).length, ...q },
          eventsRecorded: events.length,
          eventTypes: [...new Set(events.map((event) => event.type))],
          ...stages,
          taskQueue: stack.env.TEMPORAL_TASK_QUEUE_PREFIX,
        },
        baseline: {
          ...b,
          sender: `node:http request, keep-alive Agent (maxSockets ${baselineConcurrency}), one standardwebhooks Webhook per endpoint, Webhook.sign per message`,
          wallSeconds: round(sent.wallMs / 1000, 3),
          non200: sent.failures,
          postRoundTripMs: summarize(sent.roundTripMs.filter(Number.isFinite)),
          meanRoundTripMs: round(mean(sent.roundTripMs), 3),
        },
        notes: [
          `pylon: ${concurrency} clients each POST a run and wait until the receiver has the ${endpointCount} deliveries of its event; deliveries/s = distinct deliveries / (last arrival − first event created_at); latency = arrival − the payload's created_at (when the event was recorded, inside the model turn that answered), first attempt.`,
          'baseline: latency and span start when the loop takes a message, before signing (taken with sub-millisecond resolution; created_at in the body is that time in whole milliseconds); same paths, types, data and body size as the Pylon messages (a fresh UUID as id).',
          "pylon's created_at has millisecond resolution (latencies about +0.5 ms on average); the receiver stamps arrivals with sub-millisecond resolution on the same wall clock (performance.timeOrigin + performance.now()).",
          'stages: planned = webhook_deliveries.created_at (in the transaction that records the event), attempt started = webhook_attempts.started_at (in the deliverEvent activity on the webhooks task queue, after it loaded the event and its endpoints).',
          `wide: an organisation with ${wideEndpoints} endpoints (the default cap), ${wideRuns} runs, ${concurrency} in flight: what the delivery path itself sustains, when the runs are not the bottleneck.`,
          `events without runs: ${directEvents} events of the wide organisation, ${concurrency} in flight, each recorded with its deliveries by the statement Pylon records events with and announced as the API announces its events (the event's webhookWorkflow on the webhooks task queue); data is a real run's with a fresh run_id. What the delivery path sustains when the event source is not the bound.`,
          `paced: ${pacedRate} runs/s started on a timer for ${pacedSeconds} s whatever the earlier ones are doing (open loop), each waiting for its ${endpointCount} deliveries; the baseline figures beside it are the bare loop's, as above.`,
        ],
      };
    } finally {
      agent.destroy();
      await connection.close().catch(() => undefined);
      await pool.end().catch(() => undefined);
      await stack?.stop();
      await receiver.stop();
    }
  },
};
