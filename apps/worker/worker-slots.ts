import type { Worker } from '@temporalio/worker';
import type { PylonConfig } from '@pylon/config';
import type { Lane, WorkKind } from '@pylon/contracts';
import type { WorkerSlotSample } from '@pylon/metrics';

/** Each Temporal Worker's slots, used and in all, as its status tells at the moment of a scrape. */
export function slotSamples(
  polled: ReadonlyArray<{ kind: WorkKind; lane: Lane; taskQueue: string }>,
  workers: readonly Worker[],
  config: PylonConfig,
): WorkerSlotSample[] {
  return polled.flatMap(({ kind, lane, taskQueue }, index) => {
    const worker = workers[index];
    if (!worker) return [];
    const status = worker.getStatus();
    const slots = config.laneSlots(kind, lane);
    const samples: WorkerSlotSample[] = [
      { taskQueue, slotType: 'activity', used: status.numInFlightNonLocalActivities, max: slots.activities },
      { taskQueue, slotType: 'local_activity', used: status.numInFlightLocalActivities, max: slots.localActivities },
    ];
    if (lane !== 'extraction')
      samples.unshift({ taskQueue, slotType: 'workflow_task', used: status.numInFlightWorkflowActivations, max: slots.workflowTasks });
    return samples;
  });
}
