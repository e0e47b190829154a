import 'reflect-metadata';
import { NestFactory } from '@nestjs/core';
import { NativeConnection, Runtime, Worker, type RuntimeOptions } from '@temporalio/worker';
import { Logger, PinoLogger } from 'nestjs-pino';
import type { Server } from 'node:http';
import { PylonConfig, missingNodeFlagsWarning, requireSupportedNode } from '@pylon/config';
import { PylonMetrics } from '@pylon/metrics';
import { runEventsRetentionScheduleId, type WorkKind } from '@pylon/contracts';
import { ensureRunEventsRetentionSchedule, registerSearchAttributes } from '@pylon/temporal';
import { Client } from '@temporalio/client';
import { activitiesFor } from './activities';
import { domainFailureInterceptors } from './activities/activity-failure';
import { KnowledgeExtractionService } from '@pylon/knowledge';
import { serveWorkerHealth, type WorkerHealth } from './health/worker-health';
import { hostPort, metricsUrl, serveMetrics } from './metrics-server';
import { slotSamples } from './worker-slots';
import { TemporalPinoLogger } from './temporal-logger';
import { WORKFLOW_BUNDLE_PATH, workflowBundle } from './workflow-bundle';
import { WorkerModule } from './worker.module';
import { workflowOutcomeSinks } from './workflow-outcome-sinks';

/**
 * The share of a queue's workflow-task pollers that may poll its normal queue rather than this worker's
 * sticky one (the SDK's default is 0.2). A run of an in-process model is one workflow task, and the first
 * task of every workflow comes on the normal queue (with one poller there, runs waited for it); a waiting
 * run's answer comes on the sticky queue (with every poller allowed on the normal one, it waited ~300 ms
 * for a sticky poll). Half and half serves both (bench agent-run-e2e and waiting-runs).
 */
const NON_STICKY_POLL_RATIO: Partial<Record<WorkKind, number>> = { 'agent-runs': 0.5 };

/**
 * The SDK core's own metrics (`temporal_…`: task slots, schedule-to-start and execution latencies of
 * workflow, activity and local-activity tasks, the sticky cache, polls), served by the core in Prometheus
 * format when WORKER_TEMPORAL_METRICS_PORT is set; they are what tells an operator which slots to raise.
 */
function temporalMetrics(config: PylonConfig): RuntimeOptions['telemetryOptions'] {
  if (config.workerTemporalMetricsPort === 0) return undefined;
  return {
    metrics: {
      prometheus: {
        bindAddress: hostPort(config.host, config.workerTemporalMetricsPort),
        countersTotalSuffix: true,
        unitSuffix: true,
        useSecondsForDurations: true,
      },
    },
  };
}

/**
 * The Temporal worker: one Temporal Worker per kind of work it is told to poll (WORKER_QUEUES, all by
 * default), each on its own task queue with its own slots (agent runs on two: theirs and the express lane), sharing one connection and the workflow
 * bundle the build made. Opens no HTTP port, unless WORKER_METRICS_PORT asks for its Prometheus metrics.
 */
async function main(): Promise<void> {
  process.title = 'pylon-worker';
  requireSupportedNode();
  const flagsWarning = missingNodeFlagsWarning();
  if (flagsWarning) console.warn(`pylon worker ${flagsWarning}`);
  const app = await NestFactory.createApplicationContext(WorkerModule, { bufferLogs: true });
  app.useLogger(app.get(Logger));
  const config = app.get(PylonConfig);
  const temporalLogger = new TemporalPinoLogger(PinoLogger.root.child({ context: 'Temporal' }));
  Runtime.install({ logger: temporalLogger, telemetryOptions: temporalMetrics(config) });
  if (config.workerTemporalMetricsPort > 0) {
    console.log(`pylon worker Temporal SDK metrics at http://${hostPort(config.host, config.workerTemporalMetricsPort)}/metrics`);
  }
  const metrics = app.get(PylonMetrics);
  const connection = await NativeConnection.connect({ address: config.temporalAddress });
  let metricsServer: Server | undefined;
  let health: WorkerHealth | undefined;
  try {
    await registerSearchAttributes(connection, config.temporalNamespace);
    const workflows = await workflowBundle(new TemporalPinoLogger(PinoLogger.root.child({ context: 'WorkflowBundler' }, { level: 'warn' })));
    if (!workflows.prebuilt)
      PinoLogger.root.warn(`no prebuilt workflow bundle at ${WORKFLOW_BUNDLE_PATH} (npm run build makes it): bundled the workflow code at start-up`);
    // One Temporal Worker per task queue of the kinds this process polls; the agent runs' express lane gets
    // its own workflow-task slots (AGENT_RUNS_EXPRESS_SLOTS), so no other organisation's backlog holds them;
    // the extraction lane runs no workflows and one file per extraction thread.
    const polled = config.taskQueues().filter(({ kind }) => config.workerQueues.includes(kind));
    const workers = await Promise.all(
      polled.map(({ kind, lane, taskQueue }) => {
        const slots = config.laneSlots(kind, lane);
        return Worker.create({
          connection,
          namespace: config.temporalNamespace,
          taskQueue,
          workflowBundle: lane === 'extraction' ? undefined : workflows.bundle,
          activities: activitiesFor(app, kind),
          maxConcurrentWorkflowTaskExecutions: slots.workflowTasks,
          maxConcurrentActivityTaskExecutions: slots.activities,
          maxConcurrentLocalActivityExecutions: slots.localActivities,
          nonStickyToStickyPollRatio: NON_STICKY_POLL_RATIO[kind],
          sinks: workflowOutcomeSinks(metrics),
          interceptors: { activity: [domainFailureInterceptors] },
        });
      }),
    );
    metrics.reportWorkerSlots(() => slotSamples(polled, workers, config));
    if (config.workerQueues.includes('knowledge')) metrics.reportExtractionLoad(() => app.get(KnowledgeExtractionService).load);
    if (config.workerHealthPort > 0) {
      health = await serveWorkerHealth(config.host, config.workerHealthPort, config.workerStallSeconds * 1000);
      console.log(`pylon worker health at ${health.url}`);
    }
    if (config.workerMetricsPort > 0) {
      metricsServer = await serveMetrics(metrics, config.host, config.workerMetricsPort);
      console.log(`pylon worker metrics at ${metricsUrl(metricsServer)}`);
    }
    if (config.workerQueues.includes('agent-runs')) {
      await ensureRunEventsRetentionSchedule(
        app.get(Client),
        runEventsRetentionScheduleId(config.temporalTaskQueuePrefix),
        config.taskQueue('agent-runs'),
      ).catch((error: unknown) =>
        PinoLogger.root.warn({ err: error }, 'could not create the run-event retention schedule; old run events are kept until a worker does'),
      );
    }
    const queues = polled.map(({ taskQueue }) => taskQueue);
    console.log(`pylon worker polling ${queues.map((queue) => `"${queue}"`).join(', ')} on ${config.temporalAddress}`);
    await Promise.all(workers.map((worker) => worker.run()));
  } finally {
    metricsServer?.close();
    await health?.stop();
    await connection.close();
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
