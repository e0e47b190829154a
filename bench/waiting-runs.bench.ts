/**
 * Runs that wait on the customer's tool outputs: N runs of a version with a function tool all wait at
 * once (each followed on its event stream until `requires_action`); for a quiet window nothing happens,
 * and the CPU and resident memory of every process say what N waiting runs cost; then a sample's outputs
 * are submitted and each is timed until the run's terminal event, and the rest are answered.
 * Baseline on the same Temporal server: N bare workflows waiting on `condition()` for an Update that
 * carries the output, on a bare Worker in the benchmark process; the same window and the same sample.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { EventSource } from 'eventsource';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { DefaultLogger, NativeConnection, Worker, bundleWorkflowCode } from '@temporalio/worker';
import { DEFAULT_ACTION_TIMEOUT_SECONDS, agentRunWorkflowId } from '@pylon/contracts';
import type { Http } from '../test/support/http';
import { createVersion, type Tenant } from '../test/support/tenant';
import { submitToolOutput, type waitingWorkflow } from './baseline-workflow/waiting';
import { measureCpu, stackCpuParts, type CpuParts } from './process-cpu';
import {
  envInt,
  log,
  quietTemporalRuntime,
  round,
  runConcurrently,
  sleep,
  summarize,
  workflowTimeline,
  type BenchContext,
  type Benchmark,
  type BenchReport,
  type Grid,
  type Row,
} from './support';

/** A function tool the offline model calls when the input names it (`lookup_order for order 7` → {"order_id":"7"}). */
const LOOKUP_ORDER = {
  type: 'function',
  name: 'lookup_order',
  description: 'Finds an order by its id.',
  parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'], additionalProperties: false },
};
/** How long one run may take to reach its wait, or to end once answered. */
const STEP_TIMEOUT_MS = 60_000;
/** How often the baseline asks Temporal whether a started workflow waits yet. */
const DESCRIBE_EVERY_MS = 25;
const TERMINAL = ['succeeded', 'failed'];

const inputOf = (index: number) => `lookup_order for order ${index}`;
const outputOf = (index: number) => JSON.stringify({ order_id: String(index), status: 'shipped', carrier: 'DHL' });

/** A run (or bare workflow) that waits: what answering it needs. */
interface Waiting {
  index: number;
  /** Pylon: the run; baseline: the workflow id. */
  id: string;
  /** Pylon: the call the run waits for, and the seq of its `requires_action` event (the stream resumes after it). */
  callId?: string;
  seq?: number;
  /** Creation (POST, or start) → waiting, in ms. */
  waitMs: number;
}

type Failure = { index: number; error: string };

interface Answered {
  ok: boolean;
  latencyMs: number;
  /** How long the submission itself took (Pylon: the POST; baseline: executeUpdate). */
  postMs?: number;
  error?: string;
}

/** One server-sent event, or why the stream gave up. */
type StreamEnd = { type: string; seq: number; data: any } | { error: string };

/**
 * Follows a run's event stream after `after` until one of `until` arrives (then closes it). `opened`
 * resolves once the API answered the stream's request: it listens for the run's announcements by then.
 */
function followRun(
  baseUrl: string,
  key: string,
  runId: string,
  after: number,
  until: string[],
): { opened: Promise<void>; ended: Promise<StreamEnd>; close: () => void } {
  const source = new EventSource(`${baseUrl}/api/v1/agent-runs/${runId}/events?after=${after}`, {
    fetch: (input, init) => fetch(input, { ...init, headers: { ...init.headers, authorization: `Bearer ${key}` } }),
  });
  let opened!: () => void;
  let close!: () => void;
  const openedPromise = new Promise<void>((resolve) => (opened = resolve));
  source.addEventListener('open', () => opened());
  const ended = new Promise<StreamEnd>((resolve) => {
    const timer = setTimeout(() => finish({ error: `no ${until.join(' or ')} event within ${STEP_TIMEOUT_MS} ms` }), STEP_TIMEOUT_MS);
    const finish = (end: StreamEnd) => {
      clearTimeout(timer);
      source.close();
      opened();
      resolve(end);
    };
    close = () => finish({ error: 'closed' });
    for (const type of until)
      source.addEventListener(type, (event) => finish({ type, seq: Number(event.lastEventId), data: JSON.parse(event.data) }));
    source.addEventListener('error', (event) => {
      if (event.code) finish({ error: `events ${event.code}: ${event.message}` });
    });
  });
  return { opened: openedPromise, ended, close };
}

/** Resident memory (VmRSS) of each part's processes, in MB. */
function residentMb(parts: CpuParts): Record<string, number> {
  const rssKb = (pid: number) => {
    try {
      const match = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
      return match ? Number(match[1]) : 0;
    } catch {
      return 0;
    }
  };
  return Object.fromEntries(
    Object.entries(parts).map(([name, pids]) => [
      name,
      round(pids === 'this process' ? process.memoryUsage.rss() / 2 ** 20 : pids().reduce((sum, pid) => sum + rssKb(pid), 0) / 1024, 1),
    ]),
  );
}

/** The quiet window: each part's CPU in ms per second of it, and its RSS at the end. */
async function quietWindow(parts: CpuParts, seconds: number): Promise<{ cpuMsPerSecond: Record<string, number>; rssMb: Record<string, number> }> {
  const started = performance.now();
  const cpu = measureCpu(parts);
  await sleep(seconds * 1000);
  const used = cpu();
  const elapsedS = (performance.now() - started) / 1000;
  return {
    cpuMsPerSecond: Object.fromEntries(Object.entries(used).map(([part, ms]) => [part, round(ms / elapsedS, 2)])),
    rssMb: residentMb(parts),
  };
}

/** runConcurrently, saying every 15 s how many are done. */
async function withProgress<T>(what: string, count: number, concurrency: number, task: (index: number) => Promise<T>) {
  let done = 0;
  const progress = setInterval(() => log(`${what}: ${done} of ${count}`), 15_000);
  try {
    return await runConcurrently(count, concurrency, async (index) => {
      const result = await task(index);
      done++;
      return result;
    });
  } finally {
    clearInterval(progress);
  }
}

/** `count` indices spread evenly over 0..n-1 (the same on both sides): runs answered early and late, in and out of the workers' caches. */
function spread(n: number, count: number): number[] {
  return Array.from({ length: Math.min(count, n) }, (_, i) => Math.floor((i * n) / Math.min(count, n)));
}

function firstErrors(failures: Array<{ error?: string }>): string[] {
  return [...new Set(failures.map((failure) => failure.error ?? 'unknown'))].slice(0, 5);
}

// ── Pylon ───────────────────────────────────────────────────────────────────────────────────────────────

async function pylonCreateWaiting(http: Http, tenant: Tenant, versionId: string, index: number): Promise<Waiting | Failure> {
  const started = performance.now();
  const created = await http.post('/api/v1/agent-runs', {
    token: tenant.key,
    body: { org_id: tenant.orgId, agent_version_id: versionId, input: inputOf(index) },
  });
  if (created.status !== 200) return { index, error: `POST ${created.status}: ${created.text}` };
  const runId = created.body.run_id as string;
  const end = await followRun(http.baseUrl, tenant.key, runId, 0, ['requires_action', ...TERMINAL]).ended;
  if ('error' in end) return { index, error: end.error };
  if (end.type !== 'requires_action') return { index, error: `the run ended ${end.type} without waiting: ${end.data?.error ?? ''}` };
  const call = end.data.tool_calls?.[0] as { id: string; name: string } | undefined;
  if (end.data.tool_calls?.length !== 1 || call?.name !== 'lookup_order') return { index, error: `unexpected action ${JSON.stringify(end.data)}` };
  return { index, id: runId, callId: call.id, seq: end.seq, waitMs: performance.now() - started };
}

/** Submits the run's output; `timed`: with the stream opened first, from the POST to the terminal event. */
async function pylonAnswer(http: Http, key: string, run: Waiting, timed: boolean): Promise<Answered> {
  const post = () =>
    http.post(`/api/v1/agent-runs/${run.id}/tool-outputs`, {
      token: key,
      body: { tool_outputs: [{ tool_call_id: run.callId, output: outputOf(run.index) }] },
    });
  let stream: ReturnType<typeof followRun> | undefined;
  if (timed) {
    stream = followRun(http.baseUrl, key, run.id, run.seq!, TERMINAL);
    await stream.opened;
  }
  const started = performance.now();
  const answered = await post();
  const postMs = performance.now() - started;
  if (answered.status !== 200) {
    stream?.close();
    return { ok: false, latencyMs: postMs, error: `POST tool-outputs ${answered.status}: ${answered.text}` };
  }
  stream ??= followRun(http.baseUrl, key, run.id, run.seq!, TERMINAL);
  const end = await stream.ended;
  const latencyMs = performance.now() - started;
  if ('error' in end) return { ok: false, latencyMs, postMs, error: end.error };
  const expected = `lookup_order returned: ${outputOf(run.index)}`;
  if (end.type !== 'succeeded') return { ok: false, latencyMs, postMs, error: `the run ended ${end.type}: ${end.data?.error ?? ''}` };
  if (!String(end.data.output ?? '').includes(expected))
    return { ok: false, latencyMs, postMs, error: `output without "${expected}": ${end.data.output}` };
  return { ok: true, latencyMs, postMs };
}

// ── Baseline ────────────────────────────────────────────────────────────────────────────────────────────

async function baselineStartWaiting(client: Client, taskQueue: string, index: number): Promise<Waiting | Failure> {
  const workflowId = `${taskQueue}-${index}`;
  const started = performance.now();
  try {
    const handle = await client.workflow.start<typeof waitingWorkflow>('waitingWorkflow', {
      taskQueue,
      workflowId,
      args: [DEFAULT_ACTION_TIMEOUT_SECONDS],
    });
    // Waiting: its first workflow task completed (timer started), none pending, still running.
    for (;;) {
      const description = await handle.describe();
      if (description.status.name !== 'RUNNING') return { index, error: `the workflow is ${description.status.name} without waiting` };
      if (description.historyLength >= 4 && !description.raw.pendingWorkflowTask) break;
      if (performance.now() - started > STEP_TIMEOUT_MS) return { index, error: `not waiting after ${STEP_TIMEOUT_MS} ms` };
      await sleep(DESCRIBE_EVERY_MS);
    }
    return { index, id: workflowId, waitMs: performance.now() - started };
  } catch (error) {
    return { index, error: String(error) };
  }
}

/** Sends the output as an Update, with the result's long poll already asked for; from the update to the result. */
async function baselineAnswer(client: Client, workflow: Waiting): Promise<Answered> {
  const handle: WorkflowHandle<typeof waitingWorkflow> = client.workflow.getHandle(workflow.id);
  const result = handle.result();
  result.catch(() => undefined); // awaited below
  const started = performance.now();
  try {
    await handle.executeUpdate(submitToolOutput, { args: [outputOf(workflow.index)] });
    const postMs = performance.now() - started;
    const output = await result;
    const latencyMs = performance.now() - started;
    const expected = `lookup_order returned: ${outputOf(workflow.index)}`;
    return output === expected ? { ok: true, latencyMs, postMs } : { ok: false, latencyMs, postMs, error: `unexpected result ${output}` };
  } catch (error) {
    return { ok: false, latencyMs: performance.now() - started, error: String(error) };
  }
}

// ── The benchmark ───────────────────────────────────────────────────────────────────────────────────────

interface SideFigures {
  waiting: Waiting[];
  notWaiting: Failure[];
  fillSeconds: number;
  rssBeforeMb: Record<string, number>;
  quiet: { cpuMsPerSecond: Record<string, number>; rssMb: Record<string, number> };
  /** The sample's runs, in the order of `sample`. */
  sampled: Waiting[];
  sample: Answered[];
  rest: Answered[];
  restSeconds: number;
}

function sideSummary(side: SideFigures, runs: number) {
  const sampleOk = side.sample.filter((answer) => answer.ok);
  return {
    runs,
    waiting: side.waiting.length,
    notWaiting: side.notWaiting.length,
    notWaitingErrors: firstErrors(side.notWaiting),
    fillSeconds: side.fillSeconds,
    waitingPerSecond: round(side.waiting.length / side.fillSeconds, 1),
    createToWaitingMs: summarize(side.waiting.map((w) => w.waitMs)),
    quietWindow: side.quiet,
    rssBeforeMb: side.rssBeforeMb,
    sample: {
      answered: side.sample.length,
      succeeded: sampleOk.length,
      failed: side.sample.length - sampleOk.length,
      errors: firstErrors(side.sample.filter((answer) => !answer.ok)),
      submitToTerminalMs: summarize(sampleOk.map((answer) => answer.latencyMs)),
      submitCallMs: summarize(sampleOk.map((answer) => answer.postMs ?? NaN).filter(Number.isFinite)),
    },
    rest: {
      answered: side.rest.length,
      succeeded: side.rest.filter((answer) => answer.ok).length,
      errors: firstErrors(side.rest.filter((answer) => !answer.ok)),
      seconds: side.restSeconds,
    },
  };
}

/**
 * Temporal's view of an answer, from the workflow's history: the workflow task the answer caused (the first
 * scheduled after the wait's timer started): whether it went to the worker's sticky queue, scheduled → started and started → completed, and scheduled →
 * workflow completed. In ms; undefined where the history lacks one of those events.
 */
async function answerTimings(client: Client, workflowId: string) {
  const history = await client.workflow.getHandle(workflowId).fetchHistory();
  const events = (history.events ?? []).map((event) => {
    const at = event.eventTime!;
    const kind = event.workflowTaskScheduledEventAttributes?.taskQueue?.kind;
    return {
      at: Number(at.seconds ?? 0) * 1000 + (at.nanos ?? 0) / 1e6,
      type: event.eventType ?? 0,
      sticky: kind === temporal.api.enums.v1.TaskQueueKind.TASK_QUEUE_KIND_STICKY,
    };
  });
  const types = temporal.api.enums.v1.EventType;
  const timer = events.findIndex((event) => event.type === types.EVENT_TYPE_TIMER_STARTED);
  const after = (from: number, type: number) => events.findIndex((event, i) => i > from && event.type === type);
  const scheduled = after(timer, types.EVENT_TYPE_WORKFLOW_TASK_SCHEDULED);
  const started = after(scheduled, types.EVENT_TYPE_WORKFLOW_TASK_STARTED);
  const completed = after(started, types.EVENT_TYPE_WORKFLOW_TASK_COMPLETED);
  const closed = after(scheduled, types.EVENT_TYPE_WORKFLOW_EXECUTION_COMPLETED);
  if (timer < 0 || scheduled < 0 || started < 0 || completed < 0 || closed < 0) return undefined;
  return {
    sticky: events[scheduled]!.sticky,
    scheduleToStartMs: events[started]!.at - events[scheduled]!.at,
    startToCompleteMs: events[completed]!.at - events[started]!.at,
    scheduledToClosedMs: events[closed]!.at - events[scheduled]!.at,
  };
}

/** answerTimings of every sampled workflow, summarised. */
async function sampleTimings(client: Client, side: SideFigures, workflowId: (waiting: Waiting) => string) {
  const { results } = await runConcurrently(side.sampled.length, 8, (i) =>
    side.sample[i]!.ok ? answerTimings(client, workflowId(side.sampled[i]!)).catch(() => undefined) : Promise.resolve(undefined),
  );
  const found = results.filter((timings) => timings !== undefined);
  return {
    workflows: found.length,
    answerTasksOnStickyQueue: found.filter((timings) => timings.sticky).length,
    answerTaskScheduleToStartMs: summarize(found.map((timings) => timings.scheduleToStartMs)),
    answerTaskStartToCompleteMs: summarize(found.map((timings) => timings.startToCompleteMs)),
    answerTaskScheduledToWorkflowClosedMs: summarize(found.map((timings) => timings.scheduledToClosedMs)),
  };
}

/** The history of the sample's slowest answer, as offsets from its first event: where did the time go? */
async function slowestTimeline(client: Client, side: SideFigures, workflowId: (waiting: Waiting) => string) {
  let slowest: number | undefined;
  side.sample.forEach((answer, i) => {
    if (answer.ok && (slowest === undefined || answer.latencyMs > side.sample[slowest]!.latencyMs)) slowest = i;
  });
  if (slowest === undefined) return undefined;
  return { latencyMs: round(side.sample[slowest]!.latencyMs, 1), ...(await workflowTimeline(client, workflowId(side.sampled[slowest]!))) };
}

export const waitingRunsBenchmark: Benchmark = {
  name: 'waiting-runs',
  description:
    "N runs waiting on a function tool's outputs at once: CPU and memory of every process while they wait, then submit → succeeded latency, vs N bare Temporal workflows waiting on condition() for an Update",
  // Both sides create, then answer, N runs (Pylon ≈ 25–40 runs/s each way on 2 busy cores), and settle and wait quietly three times.
  budgetMinutes: () =>
    4 +
    (envInt('BENCH_WAITING_RUNS', 10_000) * 2.5) / 1_000 +
    ((envInt('BENCH_WAITING_SETTLE_SECONDS', 60) + envInt('BENCH_WAITING_IDLE_SECONDS', 30)) * 3) / 60,
  async run(context: BenchContext): Promise<BenchReport> {
    const runs = envInt('BENCH_WAITING_RUNS', 10_000);
    const idleSeconds = envInt('BENCH_WAITING_IDLE_SECONDS', 30);
    // After the last run waits, before the quiet window: the processes collect the garbage the burst left (V8 does it in steps, over up to a minute).
    const settleSeconds = envInt('BENCH_WAITING_SETTLE_SECONDS', 60);
    const sampleSize = Math.min(envInt('BENCH_WAITING_SAMPLE', 200), runs);
    const concurrency = envInt('BENCH_WAITING_CONCURRENCY', 16);
    const sampleConcurrency = envInt('BENCH_WAITING_SAMPLE_CONCURRENCY', 8);
    const sampleIndices = spread(runs, sampleSize);
    const inSample = new Set(sampleIndices);

    const stack = await context.stack();
    const http = await context.http();
    const tenant = await context.tenant();
    const versionId = await createVersion(http, tenant.key, tenant.agentId, { model: 'local/extractive', tools: [LOOKUP_ORDER] });
    const temporalAddress = context.infra.temporalAddress;
    const connection = await Connection.connect({ address: temporalAddress }).catch((error: unknown) => {
      throw new Error(`could not connect to the Temporal dev server at ${temporalAddress} (did it exit?): ${String(error)}`);
    });
    const client = new Client({ connection });
    const cpuParts = stackCpuParts(context.infra, stack);
    // Bundled up front: a bundle that fails stops the benchmark before the long Pylon side, not after it.
    const baselineBundle = await bundleWorkflowCode({
      workflowsPath: require.resolve('./baseline-workflow/waiting'),
      logger: new DefaultLogger('WARN'),
    });

    /** Both sides' steps, the same way: fill, wait quietly, answer the sample timed, answer the rest. */
    const side = async (
      label: string,
      create: (index: number) => Promise<Waiting | Failure>,
      answer: (waiting: Waiting, timed: boolean) => Promise<Answered>,
    ): Promise<SideFigures> => {
      const rssBeforeMb = residentMb(cpuParts);
      log(`${label}: ${runs} waiting at once, ${concurrency} at a time`);
      const filled = await withProgress(`${label}: waiting`, runs, concurrency, create);
      const waiting = filled.results.filter((outcome): outcome is Waiting => 'id' in outcome);
      const notWaiting = filled.results.filter((outcome): outcome is Failure => 'error' in outcome);
      const fillSeconds = round(filled.wallMs / 1000, 1);
      log(
        `${label}: ${waiting.length} waiting after ${fillSeconds} s (${notWaiting.length} not${notWaiting.length ? `, e.g. ${notWaiting[0]!.error}` : ''})`,
      );

      await sleep(settleSeconds * 1000);
      log(`${label}: quiet for ${idleSeconds} s`);
      const quiet = await quietWindow(cpuParts, idleSeconds);

      const byIndex = new Map(waiting.map((w) => [w.index, w]));
      const sampled = sampleIndices.flatMap((index) => byIndex.get(index) ?? []);
      log(`${label}: answering a sample of ${sampled.length}, ${sampleConcurrency} at a time`);
      const sample = await runConcurrently(sampled.length, sampleConcurrency, (i) => answer(sampled[i]!, true));
      const others = waiting.filter((w) => !inSample.has(w.index));
      log(`${label}: answering the other ${others.length}`);
      const rest = await withProgress(`${label}: answered`, others.length, concurrency, (i) => answer(others[i]!, false));
      const failed = [...sample.results, ...rest.results].filter((answered) => !answered.ok);
      if (failed.length) log(`${label}: ${failed.length} answers failed, e.g. ${failed[0]!.error}`);
      return {
        waiting,
        notWaiting,
        fillSeconds,
        rssBeforeMb,
        quiet,
        sampled,
        sample: sample.results,
        rest: rest.results,
        restSeconds: round(rest.wallMs / 1000, 1),
      };
    };

    try {
      // The floor: the stack (Temporal, Pylon's API, worker and database) with nothing waiting.
      await sleep(settleSeconds * 1000);
      log(`nothing waiting: quiet for ${idleSeconds} s`);
      const floor = await quietWindow(cpuParts, idleSeconds);

      // Pylon: API + worker processes started by Stack.
      const pylon = await side(
        'pylon',
        (index) => pylonCreateWaiting(http, tenant, versionId, index),
        (run, timed) => pylonAnswer(http, tenant.key, run, timed),
      );

      // Baseline: a bare Worker in this process on its own task queue, on the same Temporal server.
      quietTemporalRuntime();
      const taskQueue = `bench-waiting-${randomBytes(4).toString('hex')}`;
      const workerConnection = await NativeConnection.connect({ address: temporalAddress });
      const worker = await Worker.create({
        connection: workerConnection,
        taskQueue,
        workflowBundle: baselineBundle,
      });
      const workerRunning = worker.run();
      let baseline: SideFigures;
      try {
        baseline = await side(
          `baseline (task queue ${taskQueue})`,
          (index) => baselineStartWaiting(client, taskQueue, index),
          (workflow) => baselineAnswer(client, workflow),
        );
      } finally {
        worker.shutdown();
        await workerRunning;
        await workerConnection.close();
      }

      const p = sideSummary(pylon, runs);
      const b = sideSummary(baseline, runs);
      const pc = pylon.quiet.cpuMsPerSecond;
      const bc = baseline.quiet.cpuMsPerSecond;
      const pm = pylon.quiet.rssMb;
      const bm = baseline.quiet.rssMb;
      const sum = (values: number[]) =>
        round(
          values.reduce((a, c) => a + c, 0),
          2,
        );
      // Pylon's side is its API, worker, database and Temporal; the baseline's is Temporal and the benchmark process (its Worker).
      const pylonParts = ['Temporal server', 'Pylon API', 'Pylon worker', 'database'];
      const baselineParts = ['Temporal server', 'benchmark process'];
      const rows: Row[] = [
        { metric: 'waiting at once', pylon: p.waiting, baseline: b.waiting, digits: 0 },
        { metric: `all waiting after (s, ${concurrency} at a time)`, pylon: p.fillSeconds, baseline: b.fillSeconds, digits: 1 },
        { metric: 'quiet CPU (ms/s): Temporal server', pylon: pc['Temporal server']!, baseline: bc['Temporal server']!, digits: 1 },
        {
          metric: 'quiet CPU (ms/s): worker (baseline: benchmark process)',
          pylon: pc['Pylon worker']!,
          baseline: bc['benchmark process']!,
          digits: 1,
        },
        { metric: 'quiet CPU (ms/s): Pylon API', pylon: pc['Pylon API']!, baseline: null, digits: 1 },
        { metric: 'quiet CPU (ms/s): database', pylon: pc.database!, baseline: null, digits: 1 },
        {
          metric: 'quiet CPU (ms/s): total',
          pylon: sum(pylonParts.map((part) => pc[part]!)),
          baseline: sum(baselineParts.map((part) => bc[part]!)),
          digits: 1,
        },
        { metric: 'RSS while waiting (MB): Temporal server', pylon: pm['Temporal server']!, baseline: bm['Temporal server']!, digits: 0 },
        {
          metric: 'RSS while waiting (MB): worker (baseline: benchmark process)',
          pylon: pm['Pylon worker']!,
          baseline: bm['benchmark process']!,
          digits: 0,
        },
        { metric: 'RSS while waiting (MB): Pylon API', pylon: pm['Pylon API']!, baseline: null, digits: 0 },
        { metric: 'RSS while waiting (MB): database', pylon: pm.database!, baseline: null, digits: 0 },
        {
          metric: 'RSS while waiting (MB): total',
          pylon: sum(pylonParts.map((part) => pm[part]!)),
          baseline: sum(baselineParts.map((part) => bm[part]!)),
          digits: 0,
        },
        { metric: 'submit → succeeded p50 (ms)', pylon: p.sample.submitToTerminalMs.p50, baseline: b.sample.submitToTerminalMs.p50, digits: 1 },
        { metric: 'submit → succeeded p99 (ms)', pylon: p.sample.submitToTerminalMs.p99, baseline: b.sample.submitToTerminalMs.p99, digits: 1 },
        { metric: 'submit → succeeded mean (ms)', pylon: p.sample.submitToTerminalMs.mean, baseline: b.sample.submitToTerminalMs.mean, digits: 1 },
        {
          metric: 'not waiting + failed answers',
          pylon: p.notWaiting + p.sample.failed + (p.rest.answered - p.rest.succeeded),
          baseline: b.notWaiting + b.sample.failed + (b.rest.answered - b.rest.succeeded),
          digits: 0,
        },
      ];
      const parts = Object.keys(cpuParts);
      const processes: Grid = {
        title: `each process in each quiet window: CPU (ms/s) and RSS at its end (MB); nothing waiting, then ${runs} Pylon runs, then ${runs} bare workflows (Pylon's runs all answered)`,
        header: [
          'process',
          'CPU: nothing waits',
          'CPU: Pylon runs wait',
          'CPU: bare workflows wait',
          'RSS: nothing waits',
          'RSS: Pylon runs wait',
          'RSS: before the workflows',
          'RSS: bare workflows wait',
        ],
        rows: parts.map((part) => [
          part,
          floor.cpuMsPerSecond[part]!,
          pc[part]!,
          bc[part]!,
          floor.rssMb[part]!,
          pm[part]!,
          baseline.rssBeforeMb[part]!,
          bm[part]!,
        ]),
      };
      return {
        parameters: {
          runs,
          quietWindowSeconds: idleSeconds,
          settleBeforeWindowSeconds: settleSeconds,
          sample: sampleIndices.length,
          sampleConcurrency,
          concurrency,
          model: 'local/extractive',
          tool: LOOKUP_ORDER,
          actionTimeoutSeconds: DEFAULT_ACTION_TIMEOUT_SECONDS,
          stepTimeoutMs: STEP_TIMEOUT_MS,
        },
        rows,
        tables: [processes],
        pylon: {
          nothingWaitingWindow: floor,
          ...p,
          taskQueue: stack.env.TEMPORAL_TASK_QUEUE_PREFIX,
          sampleTemporalTimings: await sampleTimings(client, pylon, (run) => agentRunWorkflowId(run.id)),
          slowestSampleRun: await slowestTimeline(client, pylon, (run) => agentRunWorkflowId(run.id)),
        },
        baseline: {
          ...b,
          taskQueue,
          workflow: 'waitingWorkflow (condition() with the same timeout for an Update carrying the output, then returns)',
          sampleTemporalTimings: await sampleTimings(client, baseline, (workflow) => workflow.id),
          slowestSampleRun: await slowestTimeline(client, baseline, (workflow) => workflow.id),
        },
        notes: [
          `pylon: each run is created (POST) and followed on its event stream (SSE) until requires_action, then the stream is closed: during the quiet window no stream is open and no request is made; baseline: each workflow is started and \`describe\`d every ${DESCRIBE_EVERY_MS} ms until its first workflow task completed.`,
          `quiet CPU: each process's user + system time (all threads, from /proc) over the ${idleSeconds} s window that starts ${settleSeconds} s after the last run waits, per second (/proc counts in 10 ms ticks); RSS: VmRSS at the end of the window (for PostgreSQL, the sum over its processes, shared memory counted in each). A first window, before anything waits, is the stack's floor (pylon.nothingWaitingWindow).`,
          "the baseline's Worker runs in the benchmark process, which also holds the clients of both sides: its row is the baseline's worker. During the baseline's window Pylon's API, worker and database have nothing waiting any more, but still free what the runs left (garbage collection): see the table of processes.",
          `submit → succeeded, pylon: the run's event stream is opened (after the requires_action event) before the POST /tool-outputs; from the POST until the stream's succeeded event. baseline: handle.result() is asked for, then from executeUpdate until the result. The sample is ${sampleIndices.length} runs spread evenly over the creation order, the same indices on both sides, ${sampleConcurrency} in flight.`,
          `both workflows wait with a timer of the action timeout (${DEFAULT_ACTION_TIMEOUT_SECONDS} s); a Worker keeps at most maxCachedWorkflows workflows in its cache (by default from the heap size: about 2 300 with a 4 GB heap), so with more waiting an answer to an evicted one is a replay of its history.`,
        ],
      };
    } finally {
      await client.connection.close();
    }
  },
};
