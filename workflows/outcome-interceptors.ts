import { ContinueAsNew, TemporalFailure, isCancellation, proxySinks, type WorkflowInterceptorsFactory } from '@temporalio/workflow';
import type { WorkflowOutcome, WorkflowOutcomeSinks } from '@pylon/contracts';

const { workflowOutcome } = proxySinks<WorkflowOutcomeSinks>();

/**
 * How a workflow's main function ended, in the terms Temporal closes it with; `undefined` for an error
 * that fails only the workflow task (Temporal retries the task, the workflow goes on).
 */
function outcomeOf(error: unknown): WorkflowOutcome | undefined {
  if (error instanceof ContinueAsNew) return 'continued_as_new';
  if (isCancellation(error)) return 'cancelled';
  if (error instanceof TemporalFailure) return 'failed';
  return undefined;
}

/** Tells the worker how every workflow ended, for `pylon_workflows_completed_total`. Bundled with the workflows. */
export const interceptors: WorkflowInterceptorsFactory = () => ({
  inbound: [
    {
      async execute(input, next) {
        try {
          const result = await next(input);
          workflowOutcome.ended('completed');
          return result;
        } catch (error) {
          const outcome = outcomeOf(error);
          if (outcome) workflowOutcome.ended(outcome);
          throw error;
        }
      },
    },
  ],
});
