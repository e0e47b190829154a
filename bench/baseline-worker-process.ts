/**
 * A bare Temporal Worker in a process of its own (as Pylon's worker is): baselineWorkflow on the task
 * queue given as argv[2], against TEMPORAL_ADDRESS. Says `ready` once polling; SIGTERM stops it.
 */
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import type { BaselineActivities } from './baseline-workflow';

async function main(): Promise<void> {
  process.title = 'pylon-bench-bare-worker';
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const connection = await NativeConnection.connect({ address: process.env.TEMPORAL_ADDRESS });
  const activities: BaselineActivities = { shout: async (input) => input.toUpperCase() };
  const worker = await Worker.create({ connection, taskQueue: process.argv[2]!, workflowsPath: require.resolve('./baseline-workflow'), activities });
  process.once('SIGTERM', () => worker.shutdown());
  console.log('ready');
  await worker.run();
  await connection.close();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
