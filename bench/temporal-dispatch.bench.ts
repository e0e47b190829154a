/**
 * The Temporal dev server's history-queue reads. A bare one-activity workflow (bench/baseline-workflow)
 * is started open loop at several rates and timed until its result, on a dev server as Pylon starts it
 * (history queues read up to 1 000 times a second) and, as the baseline, on one with the server's own
 * default (20 a second). Both servers run in this benchmark, one after the other, with a Worker in this
 * process; nothing of Pylon's own code is involved: this measures the setting Pylon chose.
 */
import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { startTemporalDevServer } from '../apps/embedded/dev-server';
import type { BaselineActivities, baselineWorkflow } from './baseline-workflow';
import { envInt, log, openLoop, quietTemporalRuntime, round, summarize, type Benchmark, type BenchReport } from './support';

const INPUT = 'dispatch';

/** Each workflow's start → result, in ms, started open loop. */
async function pacedWorkflows(client: Client, taskQueue: string, rate: number, seconds: number): Promise<ReturnType<typeof summarize>> {
  const latencies = await openLoop(rate, seconds, async (i) => {
    const begin = performance.now();
    const output = await client.workflow.execute<typeof baselineWorkflow>('baselineWorkflow', {
      taskQueue,
      workflowId: `${taskQueue}-${rate}-${i}`,
      args: [INPUT],
    });
    if (output !== INPUT.toUpperCase()) throw new Error(`unexpected output ${output}`);
    return performance.now() - begin;
  });
  return summarize(latencies);
}

/** One dev server with the given read rate: each workflow rate in turn, after a warm-up. */
async function measure(readsPerSecond: number, rates: number[], seconds: number): Promise<Record<number, ReturnType<typeof summarize>>> {
  const server = await startTemporalDevServer({ historyQueueReadsPerSecond: readsPerSecond });
  const workerConnection = await NativeConnection.connect({ address: server.address });
  const connection = await Connection.connect({ address: server.address });
  const taskQueue = `dispatch-${randomBytes(4).toString('hex')}`;
  const activities: BaselineActivities = { shout: async (input) => input.toUpperCase() };
  const worker = await Worker.create({ connection: workerConnection, taskQueue, workflowsPath: require.resolve('./baseline-workflow'), activities });
  const running = worker.run();
  try {
    const client = new Client({ connection });
    await pacedWorkflows(client, taskQueue, 4, 2);
    const figures: Record<number, ReturnType<typeof summarize>> = {};
    for (const rate of rates) {
      figures[rate] = await pacedWorkflows(client, taskQueue, rate, seconds);
      log(`history queue reads ${readsPerSecond}/s, ${rate} workflows/s: p50 ${figures[rate]!.p50} ms, p99 ${figures[rate]!.p99} ms`);
    }
    return figures;
  } finally {
    worker.shutdown();
    await running;
    await connection.close();
    await workerConnection.close();
    await server.stop();
  }
}

export const temporalDispatchBenchmark: Benchmark = {
  name: 'temporal-dispatch',
  description:
    "a bare one-activity workflow's latency at several open-loop rates, on the dev server as Pylon starts it vs the server's default history-queue reads",
  budgetMinutes: () => 5,
  async run(): Promise<BenchReport> {
    const rates = (process.env.BENCH_DISPATCH_RATES ?? '4,13,26').split(',').map(Number);
    const seconds = envInt('BENCH_DISPATCH_SECONDS', 10);
    quietTemporalRuntime();
    const tuned = await measure(1_000, rates, seconds);
    const stock = await measure(20, rates, seconds);
    const rows = rates.flatMap((rate) => [
      { metric: `${rate} workflows/s: latency p50 (ms)`, pylon: round(tuned[rate]!.p50, 1), baseline: round(stock[rate]!.p50, 1), digits: 1 },
      { metric: `${rate} workflows/s: latency p99 (ms)`, pylon: round(tuned[rate]!.p99, 1), baseline: round(stock[rate]!.p99, 1), digits: 1 },
    ]);
    return {
      parameters: { rates, seconds, workflow: 'baselineWorkflow (one activity)', tunedReadsPerSecond: 1_000, stockReadsPerSecond: 20 },
      rows,
      pylon: { side: 'dev server as Pylon starts it: history.{transfer,timer,visibility}ProcessorMaxPollRPS=1000', latencyMs: tuned },
      baseline: { side: "dev server with the server's default of 20 reads a second", latencyMs: stock },
      notes: [
        'latency = client.workflow.execute (start + long poll of the result), the workflows started on a timer whatever the earlier ones are doing',
      ],
    };
  },
};
