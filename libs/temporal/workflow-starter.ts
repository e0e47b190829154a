import { Inject, Injectable } from '@nestjs/common';
import { Client, WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import { WorkflowIdReusePolicy } from '@temporalio/common';
import { WORKFLOW_KINDS, pylonSearchAttributes, type WorkflowType } from '@pylon/contracts';
import { PylonConfig } from '@pylon/config';
import { PylonMetrics } from '@pylon/metrics';

export interface StartRequest {
  workflowType: WorkflowType;
  workflowId: string;
  args: unknown[];
  orgId: string;
  resourceId: string;
  summary: string;
  /** A workflow that has closed may run again under the same id (a rebuild); by default an id runs once. */
  rerunWhenClosed?: boolean;
  /**
   * The organisation's share of each task queue while other organisations have tasks waiting too
   * (Temporal's fairness weight, default 1); its activities inherit it with the fairness key.
   */
  fairnessWeight?: number;
  /** Its first task waits this long: the server holds it, so a wait at the start costs no timer and no task. */
  startDelayMs?: number;
  /** On its kind's express lane (agent runs of an organisation with nothing else queued), when the lane is on. */
  express?: boolean;
}

/**
 * Starts a resource's workflow exactly once: the workflow id comes from the resource id, so a retry
 * that finds the workflow already started is success, not an error.
 */
@Injectable()
export class WorkflowStarter {
  constructor(
    @Inject(Client) private readonly temporal: Client,
    private readonly config: PylonConfig,
    private readonly metrics: PylonMetrics,
  ) {}

  /** Counted in `pylon_workflows_started_total` when this call started it. */
  async start(request: StartRequest): Promise<void> {
    await this.tryStart(request);
  }

  /** As start(); false when the workflow was started already (and still runs, unless `rerunWhenClosed` is false). */
  async tryStart(request: StartRequest): Promise<boolean> {
    try {
      await this.temporal.workflow.start(request.workflowType, this.options(request));
      this.metrics.countWorkflowStarted(request.workflowType);
      return true;
    } catch (error) {
      if (!(error instanceof WorkflowExecutionAlreadyStartedError)) throw error;
      return false;
    }
  }

  /**
   * Signals the workflow, starting it first when it is not running (a closed one runs again under the same
   * id, with the request's arguments); a workflow waiting out its start delay gets its first task at once.
   */
  async signalWithStart(request: Omit<StartRequest, 'rerunWhenClosed'> & { signal: string; signalArgs: unknown[] }): Promise<void> {
    await this.temporal.workflow.signalWithStart(request.workflowType, {
      ...this.options({ ...request, rerunWhenClosed: true }),
      signal: request.signal,
      signalArgs: request.signalArgs,
    });
  }

  private options(request: StartRequest) {
    return {
      workflowId: request.workflowId,
      taskQueue: this.config.taskQueue(WORKFLOW_KINDS[request.workflowType], request.express ? 'express' : 'standard'),
      priority: { fairnessKey: request.orgId, ...(request.fairnessWeight ? { fairnessWeight: request.fairnessWeight } : {}) },
      args: request.args,
      workflowIdReusePolicy: request.rerunWhenClosed ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: pylonSearchAttributes(request.orgId, request.resourceId),
      staticSummary: request.summary,
      ...(request.startDelayMs ? { startDelay: request.startDelayMs } : {}),
    };
  }

  /** Sends a signal (Temporal keeps it in the workflow's history, whether or not a worker is up); false when there is no such workflow. */
  async signal(workflowId: string, signalName: string, arg: unknown): Promise<boolean> {
    try {
      await this.temporal.workflow.getHandle(workflowId).signal(signalName, arg);
      return true;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }

  /** Requests cancellation; false when there is no such workflow. */
  async cancel(workflowId: string): Promise<boolean> {
    try {
      await this.temporal.workflow.getHandle(workflowId).cancel();
      return true;
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) return false;
      throw error;
    }
  }
}
