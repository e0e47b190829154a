import { Injectable, Module, type OnModuleInit } from '@nestjs/common';
import { RateLimitMetrics } from '@pylon/limits';
import { PylonMetrics } from '@pylon/metrics';
import { TaskQueueBacklogReader } from '@pylon/temporal';
import { MetricsController } from './metrics.controller';

/** A scrape reuses a backlog read this recent, so frequent scrapes cost Temporal little. */
const BACKLOG_MAX_AGE_MS = 5_000;
const BACKLOG_TIMEOUT_MS = 2_000;

/** Feeds `pylon_task_queue_backlog` from the same DescribeTaskQueue reads as `/readyz`. */
@Injectable()
export class TaskQueueBacklogMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: PylonMetrics,
    private readonly backlog: TaskQueueBacklogReader,
  ) {}

  onModuleInit(): void {
    this.metrics.reportTaskQueueBacklog(async () =>
      (await this.backlog.read(BACKLOG_MAX_AGE_MS, BACKLOG_TIMEOUT_MS)).flatMap((queue) => [
        { taskQueue: queue.taskQueue, taskType: 'workflow' as const, tasks: queue.workflowTasks },
        { taskQueue: queue.taskQueue, taskType: 'activity' as const, tasks: queue.activityTasks },
      ]),
    );
  }
}

/** Counts what the limits refuse in `pylon_rate_limit_rejections_total{limit}`. */
@Injectable()
export class RateLimitRejectionMetrics implements OnModuleInit {
  constructor(
    private readonly metrics: PylonMetrics,
    private readonly limits: RateLimitMetrics,
  ) {}

  onModuleInit(): void {
    this.limits.onRejected = (limit) => this.metrics.countRateLimitRejection(limit);
  }
}

@Module({ controllers: [MetricsController], providers: [TaskQueueBacklogMetrics, RateLimitRejectionMetrics] })
export class MetricsApiModule {}
