import { Inject, Injectable } from '@nestjs/common';
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { WorkKind } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';

const { TaskQueueKind, TaskQueueType } = temporal.api.enums.v1;

/** The approximate backlog of one task queue (a kind's, or the agent runs' express lane), as Temporal reports it. */
export interface QueueBacklog {
  kind: WorkKind;
  taskQueue: string;
  workflowTasks: number;
  activityTasks: number;
}

/** A protobuf int64: a Long, or a number, or absent when zero. */
function toNumber(value: { toString(): string } | number | null | undefined): number {
  return value === null || value === undefined ? 0 : Number(value.toString());
}

/**
 * The backlog of every task queue the workers poll: Temporal's DescribeTaskQueue with `report_stats` (default
 * API mode, one call per task queue type), whose `approximate_backlog_count` counts the tasks no
 * worker has picked up yet. One read is shared by every caller that accepts its age.
 */
@Injectable()
export class TaskQueueBacklogReader {
  private latest: { at: number; backlog: Promise<QueueBacklog[]>; settled: boolean } | undefined;

  constructor(
    @Inject(Client) private readonly temporal: Client,
    private readonly config: PylonConfig,
  ) {}

  /**
   * Every kind's queue. A read started less than `maxAgeMs` ago (or still under way) is reused; a
   * read that takes longer than `timeoutMs` fails, so an outage of Temporal is reported quickly.
   */
  read(maxAgeMs: number, timeoutMs: number): Promise<QueueBacklog[]> {
    const now = Date.now();
    if (this.latest && (!this.latest.settled || now - this.latest.at <= maxAgeMs)) return this.latest.backlog;
    const backlog = this.describeAll(timeoutMs);
    const latest = { at: now, backlog, settled: false };
    this.latest = latest;
    backlog.then(
      () => {
        latest.settled = true;
      },
      () => {
        latest.settled = true;
        if (this.latest === latest) this.latest = undefined;
      },
    );
    return backlog;
  }

  private describeAll(timeoutMs: number): Promise<QueueBacklog[]> {
    const connection = this.temporal.connection as Connection;
    const deadline = Date.now() + timeoutMs;
    const described = connection.withDeadline(deadline, () =>
      Promise.all(
        this.config.taskQueues().map(async ({ kind, taskQueue }): Promise<QueueBacklog> => {
          const [workflowTasks, activityTasks] = await Promise.all([
            this.backlogCount(connection, taskQueue, TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW),
            this.backlogCount(connection, taskQueue, TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY),
          ]);
          return { kind, taskQueue, workflowTasks, activityTasks };
        }),
      ),
    );
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`task queue backlog not read within ${timeoutMs} ms`)), timeoutMs);
      timer.unref();
    });
    return Promise.race([described, timeout]).finally(() => clearTimeout(timer));
  }

  private async backlogCount(connection: Connection, taskQueue: string, taskQueueType: temporal.api.enums.v1.TaskQueueType): Promise<number> {
    const response = await connection.workflowService.describeTaskQueue({
      namespace: this.config.temporalNamespace,
      taskQueue: { name: taskQueue, kind: TaskQueueKind.TASK_QUEUE_KIND_NORMAL },
      taskQueueType,
      reportStats: true,
    });
    return toNumber(response.stats?.approximateBacklogCount);
  }
}
