/**
 * scale-out: runs/s and webhook deliveries/s with 2 API replicas + 2 workers (the cluster topology) against
 * 1 API + 1 worker (the baseline), on the same machine and the same clustered servers: a Temporal server on
 * its own PostgreSQL and a PostgreSQL with pgvector for Pylon's data, started for this benchmark. Each run
 * (`local/extractive`, offline) ends in an event delivered to a webhook receiver on loopback. Along with the
 * rates it records the CPU each process used per run, so that an operator can size a deployment.
 *
 * On a machine with few cores, more processes compete for the same cores: the comparison then measures
 * the overhead of more replicas, not their gain. The per-run CPU is what carries over to bigger machines.
 */
import type { Stack as StackType } from '../test/support/stack';
import { Http } from '../test/support/http';
import { OwnCluster } from '../test/support/own-cluster';
import { Stack } from '../test/support/stack';
import { createTenant } from '../test/support/tenant';
import { WebhookReceiver } from '../test/support/webhook-receiver';
import { measureCpu, withChildren, type CpuParts } from './process-cpu';
import { BENCH_LIMITS_ENV, envInt, log, round, runConcurrently, sleep, type Benchmark, type BenchReport, type Grid, type Row } from './support';

interface Shape {
  apis: number;
  workers: number;
}

interface ShapeFigures {
  shape: string;
  runs: number;
  runsPerSecond: number;
  deliveriesPerSecond: number;
  /** CPU ms each part used per run over the measured window. */
  cpuMsPerRun: Record<string, number>;
  wallSeconds: number;
}

const PARTS = ['Pylon API', 'Pylon worker', 'Temporal server', "Temporal's PostgreSQL", "Pylon's PostgreSQL", 'load generator and receiver'] as const;

function cpuParts(cluster: OwnCluster, stack: StackType): CpuParts {
  return {
    'Pylon API': () => withChildren(stack.api.child.pid),
    'Pylon worker': () => stack.worker.members.flatMap((worker) => (worker.child.pid ? [worker.child.pid] : [])),
    'Temporal server': () => (cluster.temporal.process.pid ? [cluster.temporal.process.pid] : []),
    "Temporal's PostgreSQL": () => withChildren(cluster.temporalPostgres.pid),
    "Pylon's PostgreSQL": () => withChildren(cluster.pylonPostgres.pid),
    'load generator and receiver': 'this process',
  };
}

async function measure(cluster: OwnCluster, receiver: WebhookReceiver, shape: Shape, runs: number, concurrency: number): Promise<ShapeFigures> {
  const label = `${shape.apis} API + ${shape.workers} worker${shape.workers === 1 ? '' : 's'}`;
  const stack = await Stack.start({
    apiReplicas: shape.apis,
    workers: shape.workers,
    env: { ...BENCH_LIMITS_ENV, ...cluster.env, WEBHOOK_ALLOWED_PRIVATE_TARGETS: 'loopback' },
  });
  try {
    const http = new Http(stack.url);
    const tenant = await createTenant(http);
    const path = `/scale-out/${shape.apis}-${shape.workers}`;
    const endpoint = await http.post('/api/v1/webhook-endpoints', {
      token: tenant.key,
      body: { org_id: tenant.orgId, url: `${receiver.baseUrl}${path}` },
    });
    if (endpoint.status !== 201) throw new Error(`webhook endpoint: ${endpoint.status} ${endpoint.text}`);
    const create = async (input: string) => {
      const response = await http.post('/api/v1/agent-runs', {
        token: tenant.key,
        body: { org_id: tenant.orgId, agent_version_id: tenant.versionId, input },
      });
      if (response.status !== 200) throw new Error(`create: ${response.status} ${response.text}`);
    };
    const succeeded = async () =>
      (await cluster.query<{ n: number }>(`SELECT count(*)::int AS n FROM agent_runs WHERE org_id = $1 AND status = 'succeeded'`, [tenant.orgId]))[0]!
        .n;

    // Warm up: connections, workflow caches, the first JIT.
    const warmup = Math.min(40, runs);
    await runConcurrently(warmup, concurrency, (i) => create(`warm-up ${i}`));
    while ((await succeeded()) < warmup || receiver.at(path).length < warmup) await sleep(100);

    log(`${label}: ${runs} runs at concurrency ${concurrency}`);
    const cpu = measureCpu(cpuParts(cluster, stack));
    const started = performance.now();
    await runConcurrently(runs, concurrency, (i) => create(`What is Pylon? (${i})`));
    let runsDoneMs = 0;
    for (;;) {
      const done = (await succeeded()) - warmup;
      if (!runsDoneMs && done >= runs) runsDoneMs = performance.now() - started;
      if (runsDoneMs && receiver.at(path).length >= warmup + runs) break;
      if (performance.now() - started > 240_000)
        throw new Error(`${label}: ${done} of ${runs} runs, ${receiver.at(path).length - warmup} deliveries after 240 s`);
      await sleep(50);
    }
    const deliveriesDoneMs = performance.now() - started;
    const used = cpu();
    return {
      shape: label,
      runs,
      runsPerSecond: round((runs * 1000) / runsDoneMs, 1),
      deliveriesPerSecond: round((runs * 1000) / deliveriesDoneMs, 1),
      cpuMsPerRun: Object.fromEntries(PARTS.map((part) => [part, round((used[part] ?? 0) / runs, 2)])),
      wallSeconds: round(deliveriesDoneMs / 1000, 1),
    };
  } finally {
    await stack.stop();
  }
}

export const scaleOutBenchmark: Benchmark = {
  name: 'scale-out',
  description: 'runs/s and deliveries/s with 2 API replicas + 2 workers vs 1 + 1, on a Temporal server on PostgreSQL; CPU per run of every process',
  budgetMinutes: () => 12,
  async run(): Promise<BenchReport> {
    const runs = envInt('BENCH_SCALE_RUNS', 400);
    const concurrency = envInt('BENCH_SCALE_CONCURRENCY', 16);
    const cluster = await OwnCluster.start();
    const receiver = await WebhookReceiver.start();
    try {
      const single = await measure(cluster, receiver, { apis: 1, workers: 1 }, runs, concurrency);
      const scaled = await measure(cluster, receiver, { apis: 2, workers: 2 }, runs, concurrency);
      const rows: Row[] = [
        { metric: 'runs/s (created, run, succeeded)', pylon: scaled.runsPerSecond, baseline: single.runsPerSecond, digits: 1 },
        { metric: 'webhook deliveries/s', pylon: scaled.deliveriesPerSecond, baseline: single.deliveriesPerSecond, digits: 1 },
        ...PARTS.map((part) => ({
          metric: `CPU ms per run: ${part}`,
          pylon: scaled.cpuMsPerRun[part]!,
          baseline: single.cpuMsPerRun[part]!,
          digits: 2,
        })),
      ];
      const sizing: Grid = {
        title: 'Sizing: runs/s one core of each part sustains (1000 / its CPU ms per run; each run also delivers one webhook)',
        header: ['part', `${single.shape}`, `${scaled.shape}`],
        rows: PARTS.filter((part) => part !== 'load generator and receiver').map((part) => [
          part,
          round(1000 / single.cpuMsPerRun[part]!, 0),
          round(1000 / scaled.cpuMsPerRun[part]!, 0),
        ]),
      };
      return {
        database: `PostgreSQL with pgvector (pgserver) for Pylon, Temporal server on PostgreSQL (the system's) — both started for this benchmark`,
        parameters: { runs, concurrency, model: 'local/extractive', shapes: [single.shape, scaled.shape] },
        rows,
        tables: [sizing],
        pylon: scaled as unknown as Record<string, unknown>,
        baseline: single as unknown as Record<string, unknown>,
        notes: [
          'pylon = 2 API replicas (Node cluster, one port) + 2 workers; baseline = 1 API + 1 worker; same servers, same machine.',
          'On a machine with fewer cores than processes, the 2 + 2 column measures the overhead of more replicas, not their gain.',
          'CPU per run covers the measured window: creating the run, running it, recording its event and delivering its webhook.',
        ],
      };
    } finally {
      await receiver.stop();
      await cluster.stop();
    }
  },
};
