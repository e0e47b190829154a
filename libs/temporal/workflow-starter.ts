import { Inject, Injectable } from '@nestjs/common';
import {
  Client,
  WithStartWorkflowOperation,
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
} from '@temporalio/client';
import { ApplicationFailure, type Workflow } from '@temporalio/common';
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
  /** The task queue, when the caller chose it (else the kind's standard or express lane). */
  taskQueue?: string;
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
      taskQueue: request.taskQueue ?? this.config.taskQueue(WORKFLOW_KINDS[request.workflowType], request.express ? 'express' : 'standard'),
      priority: { fairnessKey: request.orgId, ...(request.fairnessWeight ? { fairnessWeight: request.fairnessWeight } : {}) },
      args: request.args,
      workflowIdReusePolicy: request.rerunWhenClosed ? WorkflowIdReusePolicy.ALLOW_DUPLICATE : WorkflowIdReusePolicy.REJECT_DUPLICATE,
      typedSearchAttributes: pylonSearchAttributes(request.orgId, request.resourceId),
      staticSummary: request.summary,
      ...(request.startDelayMs ? { startDelay: request.startDelayMs } : {}),
    };
  }

  /**
   * Sends an Update and waits until the workflow handled it: its result, a refusal (the failure type and
   * message the workflow's validator or handler threw), or `closed` when no such workflow runs.
   */
  async update<T>(workflowId: string, updateName: string, arg: unknown): Promise<UpdateOutcome<T>> {
    return resendingForgotten(async () => ({
      kind: 'done',
      result: await this.temporal.workflow.getHandle(workflowId).executeUpdate<T, [unknown]>(updateName, { args: [arg] }),
    }));
  }

  /**
   * Sends an Update to the workflow, starting it first when it does not run (Update-with-start; a closed one
   * runs again under the same id with the request's arguments), and waits until the workflow handled it.
   */
  async updateWithStart<T>(request: Omit<StartRequest, 'rerunWhenClosed'> & { update: string; updateArg: unknown }): Promise<UpdateOutcome<T>> {
    const options = { ...this.options({ ...request, rerunWhenClosed: true }), workflowIdConflictPolicy: 'USE_EXISTING' as const };
    return resendingForgotten(async () => ({
      kind: 'done',
      result: await this.temporal.workflow.executeUpdateWithStart<Workflow, T, [unknown]>(request.update, {
        args: [request.updateArg],
        // An operation is used once: each send gets its own.
        startWorkflowOperation: new WithStartWorkflowOperation<Workflow>(request.workflowType, options),
      }),
    }));
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

export type UpdateOutcome<T> = { kind: 'done'; result: T } | { kind: 'refused'; type: string; message: string } | { kind: 'closed' };

/** How many times an Update the server forgot is sent again. */
const FORGOTTEN_UPDATE_RESENDS = 2;

/**
 * Sends an Update, and again when the server forgot it: a refused Update is not kept, so when the first
 * answer came before the refusal, asking for the outcome finds no such update. Sending it again is safe:
 * the validator decides again, and an accepted one is kept and found.
 */
async function resendingForgotten<T>(send: () => Promise<UpdateOutcome<T>>): Promise<UpdateOutcome<T>> {
  for (let resends = 0; ; resends++) {
    try {
      return await send();
    } catch (error) {
      if (resends < FORGOTTEN_UPDATE_RESENDS && isForgottenUpdate(error)) continue;
      return updateRefusal(error);
    }
  }
}

/** The server's answer for an Update id it does not know (the workflow itself exists). */
export function isForgottenUpdate(error: unknown): boolean {
  return error instanceof WorkflowNotFoundError && /^update .* not found/.test(error.message);
}

/** A refusal the workflow gave (an ApplicationFailure in its validator or handler), or no such running workflow; anything else is rethrown. */
function updateRefusal(error: unknown): UpdateOutcome<never> {
  if (error instanceof WorkflowUpdateFailedError && error.cause instanceof ApplicationFailure) {
    return { kind: 'refused', type: error.cause.type ?? 'Error', message: error.cause.message };
  }
  if (error instanceof WorkflowNotFoundError) return { kind: 'closed' };
  throw error;
}
