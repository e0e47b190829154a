import type { InjectedSinks } from '@temporalio/worker';
import type { WorkflowOutcomeSinks } from '@pylon/contracts';
import type { PylonMetrics } from '@pylon/metrics';

/** Where the workflows' outcome interceptor reports to: `pylon_workflows_completed_total`, never again on replay. */
export function workflowOutcomeSinks(metrics: PylonMetrics): InjectedSinks<WorkflowOutcomeSinks> {
  return {
    workflowOutcome: {
      ended: { fn: (info, outcome) => metrics.countWorkflowEnded(info.workflowType, outcome), callDuringReplay: false },
    },
  };
}
