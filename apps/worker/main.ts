import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { DefaultLogger, NativeConnection, Runtime, Worker, bundleWorkflowCode, type LogLevel } from '@temporalio/worker';
import { PylonConfig } from '@pylon/config';
import { registerSearchAttributes } from '@pylon/temporal';
import { activitiesFor } from './activities';
import { WorkerModule } from './worker.module';

/**
 * The Temporal worker: one Temporal Worker per kind of work it is told to poll (WORKER_QUEUES, all by
 * default), each on its own task queue with its own slots, sharing one connection and one workflow
 * bundle. Opens no HTTP port.
 */
async function main(): Promise<void> {
  process.title = 'pylon-worker';
  const app = await NestFactory.createApplicationContext(WorkerModule, { logger: ['error', 'warn'] });
  const config = app.get(PylonConfig);
  Runtime.install({ logger: new DefaultLogger(temporalLogLevel(config.logLevel)) });
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  try {
    await registerSearchAttributes(connection, config.temporalNamespace);
    const workflowBundle = await bundleWorkflowCode({ workflowsPath: require.resolve('../../workflows'), logger: quietBundlerLogger });
    const workers = await Promise.all(
      config.workerQueues.map((kind) => {
        const slots = config.workerSlots[kind];
        return Worker.create({
          connection,
          namespace: config.temporalNamespace,
          taskQueue: config.taskQueue(kind),
          workflowBundle,
          activities: activitiesFor(app, kind),
          maxConcurrentWorkflowTaskExecutions: slots.workflowTasks,
          maxConcurrentActivityTaskExecutions: slots.activities,
          maxConcurrentLocalActivityExecutions: slots.localActivities,
        });
      }),
    );
    const queues = config.workerQueues.map((kind) => config.taskQueue(kind));
    console.log(`pylon worker polling ${queues.map((queue) => `"${queue}"`).join(', ')} on ${config.temporalAddress}`);
    await Promise.all(workers.map((worker) => worker.run()));
  } finally {
    await connection.close();
    await app.close();
  }
}

const quietBundlerLogger = new DefaultLogger('WARN');

function temporalLogLevel(level: PylonConfig['logLevel']): LogLevel {
  switch (level) {
    case 'trace':
      return 'TRACE';
    case 'debug':
      return 'DEBUG';
    case 'info':
      return 'INFO';
    case 'warn':
      return 'WARN';
    default:
      return 'ERROR';
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
