import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { DefaultLogger, NativeConnection, Runtime, Worker, type LogLevel } from '@temporalio/worker';
import { PylonConfig } from '@pylon/config';
import { registerSearchAttributes } from '@pylon/temporal';
import { buildActivities } from './activities';
import { WorkerModule } from './worker.module';

/** The Temporal worker: hosts Pylon's workflows and activities, opens no HTTP port. */
async function main(): Promise<void> {
  process.title = 'pylon-worker';
  const app = await NestFactory.createApplicationContext(WorkerModule, { logger: ['error', 'warn'] });
  const config = app.get(PylonConfig);
  Runtime.install({ logger: new DefaultLogger(temporalLogLevel(config.logLevel)) });
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
