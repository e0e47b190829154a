/**
 * The waiting-runs baseline's workflow: waits, on `condition()` with a timeout (one Temporal timer, as a
 * Pylon run waiting on a required action sets), for an Update carrying the tool's output, then returns.
 * Bundled by its own bare Worker (workflowsPath points at this file).
 */
import { ApplicationFailure, condition, defineUpdate, setHandler } from '@temporalio/workflow';

/** The tool's output; answered once the workflow holds it. */
export const submitToolOutput = defineUpdate<void, [string]>('submitToolOutput');

export async function waitingWorkflow(timeoutSeconds: number): Promise<string> {
  let output: string | undefined;
  setHandler(submitToolOutput, (value) => void (output ??= value));
  if (!(await condition(() => output !== undefined, timeoutSeconds * 1000))) throw ApplicationFailure.nonRetryable('no tool output in time');
  return `lookup_order returned: ${output}`;
}
