import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NativeConnection, Worker } from '@temporalio/worker';
import { PylonConfig } from '@pylon/config';
import { registerSearchAttributes } from '@pylon/temporal';
import { buildActivities } from './activities';
import { WorkerModule } from './worker.module';

/** The Temporal worker: hosts Pylon's workflows and activities, opens no HTTP port. */
async function main(): Promise<void> {
  process.title = 'pylon-worker';
  const app = await NestFactory.createApplicationContext(WorkerModule, { logger: ['error', 'warn'] });
  const config = app.get(PylonConfig);
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  try {
    await registerSearchAttributes(connection, config.temporalNamespace);
    const worker = await Worker.create({
      connection,
      namespace: config.temporalNamespace,
      taskQueue: config.temporalTaskQueue,
      workflowsPath: require.resolve('../../workflows'),
      activities: buildActivities(app),
    });
    console.log(`pylon worker polling task queue "${config.temporalTaskQueue}" on ${config.temporalAddress}`);
    await worker.run();
  } finally {
    await connection.close();
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
