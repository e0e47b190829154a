/** How a workflow execution ended, as the worker that ran its last task saw it (for metrics). */
export const WORKFLOW_OUTCOMES = ['completed', 'failed', 'cancelled', 'continued_as_new'] as const;
export type WorkflowOutcome = (typeof WORKFLOW_OUTCOMES)[number];

/**
 * The sink through which workflow code tells its worker process how it ended: the workflow calls
 * `workflowOutcome.ended(outcome)` (through `proxySinks`), the worker counts it. Sinks are not
 * called again when a workflow is replayed.
 */
export type WorkflowOutcomeSinks = {
  workflowOutcome: {
    ended(outcome: WorkflowOutcome): void;
  };
};
