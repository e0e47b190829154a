import { defineSignal, getExternalWorkflowHandle } from '@temporalio/workflow';
import { SIGNALS } from '@pylon/contracts';

/** A scheduled run's workflow ended: signalled by the run's workflow to the firing that created it. */
export const scheduledRunFinished = defineSignal(SIGNALS.scheduledRunFinished);

/** Tells a scheduled run's firing that the run ended (nothing when the firing is gone). */
export async function tellFiringRunFinished(firingWorkflowId: string): Promise<void> {
  try {
    await getExternalWorkflowHandle(firingWorkflowId).signal(scheduledRunFinished);
  } catch {
    // The firing ended already (or was terminated): nobody waits.
  }
}
